import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../platform/auth/credentials.ts';

/** The dashboard's session cookie: HttpOnly so page scripts never see it; X-Workspace-Id still has to be sent, which blocks CSRF. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: string,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
