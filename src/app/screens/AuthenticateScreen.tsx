import { AuthView } from '../../views/auth/AuthView.js';
import { useAuthActor } from '../session-context.js';

/** /authenticate: where the provider sends the browser back; the auth actor finishes the sign-in. */
export default function AuthenticateScreen() {
  return <AuthView actor={useAuthActor()} />;
}
