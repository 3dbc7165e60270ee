import { useSearchParams } from 'react-router';
import { VerifySenderView } from '../../views/verify-sender/VerifySenderView.js';
import { useAppActor } from '../actors.js';
import { verifySenderLogic } from '../wiring/verify-sender.js';

/** /verify-sender?token=…: the link of a sender verification email. */
export default function VerifySenderScreen() {
  const [params] = useSearchParams();
  const actor = useAppActor(verifySenderLogic, { input: { token: params.get('token') } });
  return <VerifySenderView actor={actor} />;
}
