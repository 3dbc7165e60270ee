import { AuthView } from '../../views/auth/AuthView.js';
import { useAuthActor } from '../session-context.js';

/** /login: the sign-in screen of the shared auth actor. */
export default function LoginScreen() {
  return <AuthView actor={useAuthActor()} />;
}
