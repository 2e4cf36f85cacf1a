// The page's Content-Security-Policy allows no eval (server/app/access/security-headers.ts). zod 4 would
// probe for it with `new Function` on its first parse, which a strict CSP reports as a violation even
// though zod catches the error and goes on without its compiled fast path; jitless skips the probe.
// main.tsx imports this first, before any schema is used.
import { config } from 'zod';

config({ jitless: true });
