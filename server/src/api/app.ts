/**
 * The Express application: every route of the spec under /api/v3, signed files under /files, the
 * admin API under /admin/v1, health and the OpenAPI document. One file per endpoint in routes/ and
 * admin/; this file only wires them.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import type { AppContext } from '../context.js';
import { addCreditsRoute } from './admin/addCredits.js';
import { adminAuth } from './admin/adminAuth.js';
import { createAccountRoute } from './admin/createAccount.js';
import { createKeyRoute } from './admin/createKey.js';
import { disableKeyRoute } from './admin/disableKey.js';
import { getAccountRoute } from './admin/getAccount.js';
import { authenticate } from './auth.js';
import { errorHandler, notFound, sendError } from './errors.js';
import type { GenerationEvents } from './generationEvents.js';
import { bodyAfterAuth, prefetchModerationImage } from './prefetchImage.js';
import { RecentKeys } from './recentKeys.js';
import { detectFacesRoute } from './routes/detectFaces.js';
import { faceSwapRoute } from './routes/faceSwap.js';
import { getStatus } from './routes/getStatus.js';
import { healthz, readyz, type Readiness } from './routes/health.js';
import { listModels } from './routes/listModels.js';
import { moderateRoute } from './routes/moderate.js';
import { openapi } from './routes/openapi.js';
import { serveFile } from './routes/serveFile.js';
import { submitGeneration } from './routes/submitGeneration.js';

/** Largest JSON body accepted; above it the answer is 400 VALIDATION_ERROR. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const API_PREFIX = '/api/v3';

export function createApp(ctx: AppContext, events: GenerationEvents, readiness: Readiness): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', false);
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', id);
    if (ctx.config.logLevel === 'debug') {
      const start = process.hrtime.bigint();
      res.on('finish', () =>
        ctx.log.debug(
          `${req.method} ${req.originalUrl} ${res.statusCode} ${Number(process.hrtime.bigint() - start) / 1e6} ms [${id}]`,
        ),
      );
    }
    next();
  });

  // Bodies are JSON whatever the Content-Type says (some clients omit it); an empty body is {}.
  const json = express.json({ limit: BODY_LIMIT_BYTES, type: () => true, strict: false });

  app.get('/healthz', healthz());
  app.get('/readyz', readyz(ctx, readiness));
  app.get('/openapi.json', openapi(`${ctx.publicUrl}${API_PREFIX}`, ctx.log));
  app.get(`${API_PREFIX}/openapi.json`, openapi(`${ctx.publicUrl}${API_PREFIX}`, ctx.log));
  app.get('/files/*key', serveFile(ctx));

  const api = express.Router();
  const recentKeys = new RecentKeys();
  const auth = authenticate(ctx, recentKeys);
  // GET /status/{id} and submit authenticate inside their single query (the hot paths).
  api.get('/status/:id', getStatus(ctx, events));
  api.get('/models', auth, listModels(ctx));
  api.get('/status', auth, (_req, res) =>
    sendError(res, 'NOT_FOUND', 'generation id missing: GET /status/{id}'),
  );
  api.post('/face-swap/detect', auth, json, detectFacesRoute(ctx));
  api.post('/face-swap', auth, json, faceSwapRoute(ctx));
  // An image's download starts while a recently accepted key is checked (prefetchImage.ts).
  api.post(
    '/moderation',
    prefetchModerationImage(ctx, recentKeys, json),
    auth,
    bodyAfterAuth(json),
    moderateRoute(ctx),
  );
  api.post('/:model/:task', json, submitGeneration(ctx));
  api.use(auth); // any other path: 401 without a valid key, else the 404 below
  app.use(API_PREFIX, api);

  if (ctx.config.adminToken) {
    const admin = express.Router();
    admin.use(adminAuth(ctx.config.adminToken));
    admin.post('/accounts', json, createAccountRoute(ctx));
    admin.get('/accounts/:accountId', getAccountRoute(ctx));
    admin.post('/accounts/:accountId/keys', json, createKeyRoute(ctx));
    admin.post('/accounts/:accountId/credits', json, addCreditsRoute(ctx));
    admin.post('/keys/:keyId/disable', json, disableKeyRoute(ctx));
    app.use('/admin/v1', admin);
  }

  app.use(notFound);
  app.use(errorHandler(ctx.log));
  return app;
}
