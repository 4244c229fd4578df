// A server component: rendered on the server (and prerendered at build time); the memory lives in
// the client component below, which the server renders too — without ever running Zerda there.
import { Notes } from './notes';

export default function Page() {
  return (
    <main>
      <h1>Notes that remember</h1>
      <Notes />
    </main>
  );
}
