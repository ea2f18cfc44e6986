import type { FastifyReply } from 'fastify';

// Errors as the BCB API Pix answers them: RFC 7807 problem details.

export function sendProblem(reply: FastifyReply, status: number, title: string, detail: string) {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({ type: `https://pix.bcb.gov.br/api/v2/error/${title}`, title, status, detail });
}
