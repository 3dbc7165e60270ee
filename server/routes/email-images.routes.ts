import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { EmailImageSchema, TEMPLATE_LIMITS } from '../../src/schemas/email-templates.js';
import { access } from '../http/access.js';
import { ApiError, fieldFailure, invalid } from '../http/errors.js';
import { writeScopeOf } from '../http/scope.js';
import {
  EMAIL_IMAGE_PATH,
  isPublicImageId,
  type EmailImagesService,
} from '../services/email-images.service.js';
import { PLACEHOLDER_PATH } from '../templates/placeholder-images.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Email templates'];
const UPLOAD = { ...access('Templates', 'marketer'), limit: 'upload' } as const;
const WRITE = access('Templates', 'marketer');
/** Room for a form's boundary and part headers around the image. */
const FORM_OVERHEAD_BYTES = 16 * 1024;
const TOO_LARGE = new ApiError(
  413,
  'file_too_large',
  `The image is larger than ${TEMPLATE_LIMITS.imageMaxBytes} bytes`,
);

const ImageParamSchema = z.object({
  imageId: z.string().refine(isPublicImageId, 'imageId must be an image id (22 letters, digits, - or _)'),
});

/** Uploading and deleting a company's email images (`/api/campaigns/email-images/`). */
export function emailImagesRoutes(service: EmailImagesService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, { throwFileSizeLimit: true });

    app.post(
      '/campaigns/email-images/',
      {
        config: UPLOAD,
        schema: {
          tags,
          summary: 'Upload an image for emails (multipart, field file; PNG, JPEG, GIF or WebP, at most 2 MB)',
          response: { 201: EmailImageSchema, ...errors, 413: ApiErrorSchema, 415: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new ApiError(
            415,
            'unsupported_media_type',
            'Upload the image as multipart/form-data in a field named file',
          );
        if (
          Number(request.headers['content-length'] ?? 0) >
          TEMPLATE_LIMITS.imageMaxBytes + FORM_OVERHEAD_BYTES
        )
          throw TOO_LARGE;
        const part = await request.file({
          limits: { files: 1, fileSize: TEMPLATE_LIMITS.imageMaxBytes, fields: 5 },
        });
        if (!part || part.fieldname !== 'file')
          throw invalid(
            { file: fieldFailure('required', 'Send the image in a form field named file') },
            'The form has no file field',
          );
        const bytes = await part.toBuffer().catch((error: unknown) => {
          throw (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? TOO_LARGE : error;
        });
        return reply.status(201).send(await service.upload(writeScopeOf(request), bytes));
      },
    );

    app.delete(
      '/campaigns/email-images/:imageId/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Delete an uploaded image (emails already sent with it show it no more)',
          params: ImageParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(writeScopeOf(request), request.params.imageId);
        return reply.status(204).send(null);
      },
    );
  };
}

/** Headers of a served image: cached for long (an id never changes its bytes), embeddable by any mail reader. */
const IMAGE_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'cross-origin-resource-policy': 'cross-origin',
  'content-security-policy': "default-src 'none'",
} as const;

/**
 * The images themselves, outside /api and without sign-in (email clients fetch them): uploads at
 * `/email-images/<public id>` and the gallery's placeholders at `/email-images/placeholders/<name>`.
 */
export function emailImageFilesRoutes(service: EmailImagesService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>(
      `${PLACEHOLDER_PATH}:name`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const file = service.placeholder(request.params.name);
        if (!file) throw new ApiError(404, 'not_found', 'No such image');
        return reply.headers(IMAGE_HEADERS).type(file.content_type).send(file.bytes);
      },
    );
    app.get<{ Params: { imageId: string } }>(
      `${EMAIL_IMAGE_PATH}:imageId`,
      { config: { public: true }, schema: { hide: true } },
      async (request, reply) => {
        const file = await service.file(request.params.imageId);
        if (!file) throw new ApiError(404, 'not_found', 'No such image');
        return reply.headers(IMAGE_HEADERS).type(file.content_type).send(file.bytes);
      },
    );
  };
}
