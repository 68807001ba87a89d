/**
 * Every operation of the built node, run by n8n-core's WorkflowExecute with a real execution context,
 * against the REAL mediagen server (embedded PostgreSQL, API process + worker process) started here.
 *
 * The server runs its API and its worker as separate processes so that the timeout and cancellation
 * tests can stop the worker (generations then stay `processing`) and start it again afterwards.
 */
import { join } from 'node:path';
import { startFileServer, startTestServer, type TestServer } from '@mediagen/server/testing';
import type * as W from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryBytes, loadOptions, packageRoot, runAsTool, runNode } from './harness';

const fixtures = join(packageRoot, '..', 'test', 'fixtures', 'faces');

let srv: TestServer;
let files: Awaited<ReturnType<typeof startFileServer>>;
let credentials: { apiKey: string; baseUrl: string };

beforeAll(async () => {
  srv = await startTestServer({ api: 1, workers: 1 });
  files = await startFileServer(fixtures);
  credentials = { apiKey: srv.apiKey, baseUrl: srv.baseUrl };
}, 180_000);

afterAll(async () => {
  await files?.close();
  await srv?.stop();
}, 60_000);

/** Fetches an output URL directly, to compare what the node stored with what the server sent. */
async function fetchOutput(url: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${srv.apiKey}` } });
  expect(res.status).toBe(200);
  return {
    contentType: (res.headers.get('content-type') ?? '').split(';')[0]!.trim(),
    disposition: res.headers.get('content-disposition') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

function only<T>(outputs: T[][] | undefined): T[] {
  expect(outputs).toBeDefined();
  expect(outputs).toHaveLength(1);
  return outputs![0]!;
}

const textToImage = (extra: Record<string, unknown> = {}) => ({
  resource: 'generation',
  operation: 'generate',
  outputType: 'image',
  model: { __rl: true, mode: 'id', value: 'scene-painter' },
  task: 'text-to-image',
  prompt: 'A lighthouse on a cliff under a starry sky',
  taskParameters: { output_format: 'png', seed: 11 },
  ...extra,
});

describe('Model > List', () => {
  it('lists the catalog, and filters by type', async () => {
    const all = only(
      (await runNode({ credentials, parameters: { resource: 'model', operation: 'list' } })).outputs,
    );
    const slugs = all.map((i) => i.json.slug);
    expect(slugs).toContain('scene-painter');
    expect(all.map((i) => i.json.type)).toEqual(
      expect.arrayContaining(['image', 'video', 'audio', 'moderation']),
    );
    expect(all.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);

    const images = only(
      (
        await runNode({
          credentials,
          parameters: { resource: 'model', operation: 'list', modelType: 'image' },
        })
      ).outputs,
    );
    expect(images.length).toBeGreaterThan(0);
    expect(images.length).toBeLessThan(all.length);
    expect(images.every((i) => i.json.type === 'image')).toBe(true);
  });
});

describe('the editor: model list and tasks', () => {
  it('searches the models of the chosen output type', async () => {
    const video = await loadOptions<W.INodeListSearchResult>({
      kind: 'listSearch',
      method: 'searchModels',
      parameters: { resource: 'generation', operation: 'generate', outputType: 'video' },
      credentials,
      path: 'parameters.model',
    });
    expect(video.results.map((r) => r.value)).toEqual(['scene-animator']);
    const painter = await loadOptions<W.INodeListSearchResult>({
      kind: 'listSearch',
      method: 'searchModels',
      parameters: { resource: 'generation', operation: 'generate', outputType: 'image' },
      credentials,
      path: 'parameters.model',
      filter: 'PAINT',
    });
    expect(painter.results.map((r) => r.value)).toEqual(['scene-painter']);
  });

  it("lists the chosen model's tasks of the chosen output type", async () => {
    const tasks = (model: string, outputType: string) =>
      loadOptions<W.INodePropertyOptions[]>({
        kind: 'loadOptions',
        method: 'getTasks',
        parameters: { outputType, model: { __rl: true, mode: 'list', value: model } },
        credentials,
        path: 'parameters.task',
      }).then((options) => options.map((o) => o.value));
    expect(await tasks('scene-painter', 'image')).toEqual(['text-to-image', 'image-to-image']);
    expect(await tasks('scene-animator', 'video')).toEqual([
      'text-to-video',
      'image-to-video',
      'reference-to-video',
      'video-to-video',
      'video-extend',
    ]);
    expect(await tasks('scene-painter', 'video')).toEqual([]);
  });
});

describe('Generation > Generate', () => {
  it('waits for the image and puts the file in binary data with the mime type and name the server sent', async () => {
    const result = await runNode({ credentials, parameters: textToImage({ options: { output: 'file' } }) });
    const [item] = only(result.outputs);
    expect(item!.json.status).toBe('completed');
    expect(item!.json.type).toBe('image');
    expect(item!.json.output_url).toBeUndefined(); // "Download File" returns the file, not the URL
    const binary = item!.binary!.data!;
    expect(binary.mimeType).toBe('image/png');
    const bytes = await binaryBytes(binary);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // The name and type are the server's, not guessed: compare with a direct download.
    const generation = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'generation',
            operation: 'get',
            generationId: item!.json.id,
            options: { output: 'url' },
          },
        })
      ).outputs,
    )[0]!.json;
    const direct = await fetchOutput(String(generation.output_url));
    expect(binary.mimeType).toBe(direct.contentType);
    expect(direct.disposition).toContain(String(binary.fileName));
    expect(bytes.equals(direct.bytes)).toBe(true);
  });

  it('returns the file and the URL with Output "File and URL", in a custom binary field', async () => {
    const result = await runNode({
      credentials,
      parameters: textToImage({ options: { output: 'both', binaryPropertyName: 'picture' } }),
    });
    const [item] = only(result.outputs);
    expect(String(item!.json.output_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(item!.binary!.picture!.mimeType).toBe('image/png');
    expect(item!.json.files).toEqual([
      { field: 'picture', fileName: item!.binary!.picture!.fileName, mimeType: 'image/png' },
    ]);
  });

  it('downloads every output of a count > 1 request into data, data_1, …', async () => {
    const result = await runNode({
      credentials,
      parameters: textToImage({ taskParameters: { output_format: 'jpeg', count: 2, seed: 3 } }),
    });
    const [item] = only(result.outputs);
    expect(Object.keys(item!.binary!).sort()).toEqual(['data', 'data_1']);
    for (const key of ['data', 'data_1']) {
      expect(item!.binary![key]!.mimeType).toBe('image/jpeg');
      const bytes = await binaryBytes(item!.binary![key]!);
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    }
  });

  it('generates audio (text-to-speech) with an audio mime type from the server', async () => {
    const result = await runNode({
      credentials,
      parameters: {
        resource: 'generation',
        operation: 'generate',
        outputType: 'audio',
        model: { __rl: true, mode: 'id', value: 'formant-voice' },
        task: 'text-to-speech',
        prompt: 'Hello from n8n',
        options: { output: 'both' },
      },
    });
    const [item] = only(result.outputs);
    expect(item!.json.type).toBe('audio');
    const binary = item!.binary!.data!;
    expect(binary.mimeType).toMatch(/^audio\//);
    const direct = await fetchOutput(String(item!.json.output_url));
    expect(binary.mimeType).toBe(direct.contentType);
    expect((await binaryBytes(binary)).equals(direct.bytes)).toBe(true);
  });

  it('returns the queued generation at once with Wait for Completion off; Get fetches it later', async () => {
    const queued = only(
      (await runNode({ credentials, parameters: textToImage({ options: { waitForCompletion: false } }) }))
        .outputs,
    )[0]!;
    expect(queued.json.status).toBe('processing');
    expect(queued.json.output_url).toBeNull();
    expect(queued.binary).toBeUndefined();

    let got: W.INodeExecutionData | undefined;
    for (let attempt = 0; attempt < 60; attempt++) {
      got = only(
        (
          await runNode({
            credentials,
            parameters: { resource: 'generation', operation: 'get', generationId: queued.json.id },
          })
        ).outputs,
      )[0];
      if (got!.json.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(got!.json.status).toBe('completed');
    expect(got!.binary!.data!.mimeType).toBe('image/png');
  });

  it("rejects parameters outside core's schema with a message naming the field and the limit", async () => {
    const result = await runNode({ credentials, parameters: textToImage({ taskParameters: { count: 9 } }) });
    expect(result.error?.name).toBe('NodeOperationError');
    expect(result.error?.message).toContain('count: must be at most 4');
  });

  it('refuses a Max Wait that is not a positive number before anything is charged', async () => {
    const account = await srv.createAccount(1);
    for (const maxWaitSeconds of [0, -5, '={{ "soon" }}']) {
      const result = await runNode({
        credentials: { apiKey: account.apiKey, baseUrl: srv.baseUrl },
        parameters: textToImage({ options: { maxWaitSeconds } }),
      });
      expect(result.error?.name).toBe('NodeOperationError');
      expect(result.error?.message).toMatch(/^Options > Max Wait \(Seconds\) must be a number/);
    }
    const res = await fetch(`${new URL(srv.baseUrl).origin}/admin/v1/accounts/${account.accountId}`, {
      headers: { authorization: `Bearer ${srv.adminToken}` },
    });
    expect(JSON.stringify(await res.json())).toMatch(/"balance_usd":1[,}]/);
  });

  it('refuses an object as the output field name before anything is charged', async () => {
    const account = await srv.createAccount(1);
    const result = await runNode({
      credentials: { apiKey: account.apiKey, baseUrl: srv.baseUrl },
      parameters: textToImage({ options: { binaryPropertyName: '={{ { name: "picture" } }}' } }),
    });
    expect(result.error?.name).toBe('NodeOperationError');
    expect(result.error?.message).toMatch(/^Options > Put Output File in Field must be a field name/);
    const res = await fetch(`${new URL(srv.baseUrl).origin}/admin/v1/accounts/${account.accountId}`, {
      headers: { authorization: `Bearer ${srv.adminToken}` },
    });
    expect(JSON.stringify(await res.json())).toMatch(/"balance_usd":1[,}]/);
  });

  it('turns an API error into NodeApiError with the HTTP status and the API message', async () => {
    const result = await runNode({
      credentials,
      parameters: textToImage({ model: { __rl: true, mode: 'id', value: 'no-such-model' } }),
    });
    const error = result.error as W.NodeApiError;
    expect(error.name).toBe('NodeApiError');
    expect(error.httpCode).toBe('404');
    expect(error.message).toMatch(/no-such-model/);
    expect(error.description).toContain('HTTP 404 NOT_FOUND');
  });

  it('reports a wrong API key as NodeApiError 401', async () => {
    const result = await runNode({
      credentials: { ...credentials, apiKey: 'mg_wrong_key' },
      parameters: { resource: 'model', operation: 'list' },
    });
    expect(result.error?.name).toBe('NodeApiError');
    expect((result.error as W.NodeApiError).httpCode).toBe('401');
  });

  it('keeps going with Continue On Fail: the failing item becomes an error item paired with its input', async () => {
    const done = only(
      (await runNode({ credentials, parameters: textToImage({ options: { output: 'url' } }) })).outputs,
    )[0]!;
    const result = await runNode({
      credentials,
      continueOnFail: true,
      items: [
        { json: { id: done.json.id } },
        { json: { id: 'gen_does_not_exist' } },
        { json: { id: done.json.id } },
      ],
      parameters: {
        resource: 'generation',
        operation: 'get',
        generationId: '={{ $json.id }}',
        options: { output: 'url' },
      },
    });
    const out = only(result.outputs);
    expect(out).toHaveLength(3);
    expect(out[0]!.json.status).toBe('completed');
    expect(out[0]!.pairedItem).toEqual({ item: 0 });
    expect(out[1]!.json.error).toBeTruthy();
    expect(out[1]!.json.httpCode).toBe('404');
    expect(out[1]!.pairedItem).toEqual({ item: 1 });
    expect(out[2]!.json.status).toBe('completed');
    expect(out[2]!.pairedItem).toEqual({ item: 2 });
  });
});

describe('a wrong credential or an unreachable API', () => {
  it('names the credential field when the Base URL is empty or not http(s)', async () => {
    for (const baseUrl of ['', 'localhost:8080/api/v3']) {
      const result = await runNode({
        credentials: { ...credentials, baseUrl },
        parameters: { resource: 'model', operation: 'list' },
      });
      expect(result.error?.name).toBe('NodeOperationError');
      expect(result.error?.message).toMatch(/^The Base URL of the MediaGen API credential/);
      expect(result.error?.message).not.toMatch(/MEDIAGEN_BASE_URL|\{ baseUrl \}/);
      expect(result.error?.description).toContain('/api/v3');
    }
  });

  it('says to add /api/v3 to the Base URL when the server has no such route', async () => {
    const result = await runNode({
      credentials: { ...credentials, baseUrl: new URL(srv.baseUrl).origin },
      parameters: { resource: 'model', operation: 'list' },
    });
    expect(result.error?.name).toBe('NodeApiError');
    expect((result.error as W.NodeApiError).httpCode).toBe('404');
    expect(result.error?.description).toContain('Base URL of the MediaGen API credential');
    expect(result.error?.description).toContain('/api/v3');
  });

  it('says what to check when the API is down, also as a Continue On Fail item', async () => {
    const down = { ...credentials, baseUrl: 'http://127.0.0.1:1/api/v3' };
    const result = await runNode({ credentials: down, parameters: textToImage() });
    expect(result.error?.name).toBe('NodeOperationError');
    expect(result.error?.message).toMatch(/refused the connection/);
    expect(result.error?.description).toContain('Base URL of the MediaGen API credential');
    const [item] = only(
      (await runNode({ credentials: down, continueOnFail: true, parameters: textToImage() })).outputs,
    );
    expect(item!.json.description).toContain('could not be reached');
  });
});

describe('waiting without a worker (generations stay processing)', () => {
  beforeAll(async () => {
    const worker = srv.processes.find((p) => p.kind === 'worker');
    await worker?.kill('SIGTERM');
  }, 60_000);

  afterAll(async () => {
    await srv.startProcess('worker');
  }, 120_000);

  it('stops at Max Wait with a message naming the generation id and how to fetch it later', async () => {
    const result = await runNode({
      credentials,
      parameters: textToImage({ options: { maxWaitSeconds: 2 } }),
    });
    expect(result.error?.name).toBe('NodeOperationError');
    expect(result.error?.message).toMatch(/^Generation \S+ did not finish within the Max Wait/);
    const id = /^Generation (\S+)/.exec(result.error!.message)![1]!;
    expect(result.error?.description).toContain(`Generation > Get operation and ID ${id}`);
    const check = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'generation',
            operation: 'get',
            generationId: id,
            options: { output: 'url' },
          },
        })
      ).outputs,
    );
    expect(check[0]!.json.status).toBe('processing');
  });

  it('stops waiting at once when the execution is cancelled', async () => {
    const result = await runNode({
      credentials,
      cancelAfterMs: 1500,
      parameters: textToImage({ options: { maxWaitSeconds: 600 } }),
    });
    expect(result.cancelled).toBe(true);
    // The wait ended with n8n's abort, not at the 600 s Max Wait.
    expect(result.outputs).toBeUndefined();
    expect(result.error?.message).toBe('This operation was aborted');
    expect(result.error?.message).not.toMatch(/Max Wait/);
  });
});

describe('Face Swap', () => {
  it('detects faces: one item per face, or one item with the list', async () => {
    const sourceImage = files.url('group-three.jpg');
    const split = only(
      (
        await runNode({
          credentials,
          parameters: { resource: 'faceSwap', operation: 'detectFaces', sourceImage },
        })
      ).outputs,
    );
    expect(split.length).toBeGreaterThanOrEqual(2);
    split.forEach((item, index) => {
      expect(item.json.index).toBe(index);
      expect(String(item.json.face_url)).toMatch(/^http/);
    });
    const list = only(
      (
        await runNode({
          credentials,
          parameters: { resource: 'faceSwap', operation: 'detectFaces', sourceImage, facesOutput: 'list' },
        })
      ).outputs,
    );
    expect(list).toHaveLength(1);
    expect(list[0]!.json.count).toBe(split.length);
    expect((list[0]!.json.faces as string[]).length).toBe(split.length);
  });

  it('returns an empty list with the no-faces message for a picture without a face', async () => {
    const out = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'faceSwap',
            operation: 'detectFaces',
            sourceImage: files.url('no-face-cat.jpg'),
          },
        })
      ).outputs,
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.json.faces).toEqual([]);
    expect(String(out[0]!.json.message)).not.toBe('');
  });

  it('swaps the first face of a source image into a target and downloads the result', async () => {
    const out = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'faceSwap',
            operation: 'swapFace',
            sourceFace: 'firstFace',
            sourceImage: files.url('portrait-astronaut.jpg'),
            targetMedia: files.url('portrait-hopper.jpg'),
          },
        })
      ).outputs,
    );
    expect(out[0]!.json.status).toBe('completed');
    expect(out[0]!.json.type).toBe('image');
    expect(String(out[0]!.json.source_face_url)).toMatch(/^http/);
    const binary = out[0]!.binary!.data!;
    expect(binary.mimeType).toMatch(/^image\/(jpeg|png|webp)$/);
    expect((await binaryBytes(binary)).length).toBeGreaterThan(1000);
  });

  it('fails clearly when the source image has no face', async () => {
    const result = await runNode({
      credentials,
      parameters: {
        resource: 'faceSwap',
        operation: 'swapFace',
        sourceFace: 'firstFace',
        sourceImage: files.url('no-face-coffee.jpg'),
        targetMedia: files.url('portrait-hopper.jpg'),
      },
    });
    expect(result.error?.message).toMatch(/^No face found in the source image/);
  });
});

describe('Moderation', () => {
  const texts = [
    { json: { text: 'What a lovely sunny day for a picnic in the park.' } },
    { json: { text: 'I will kill you tomorrow.' } },
  ];

  it('routes items to Passed and Flagged with Route by Verdict', async () => {
    const result = await runNode({
      credentials,
      items: texts,
      parameters: {
        resource: 'moderation',
        operation: 'moderateText',
        routeByVerdict: true,
        text: '={{ $json.text }}',
        options: { policy: 'violence' },
      },
    });
    expect(result.outputs).toHaveLength(2);
    const [passed, flagged] = result.outputs!;
    expect(passed!.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
    expect(flagged!.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
    expect(passed![0]!.json).toMatchObject({
      nsfw: false,
      flagged: false,
      policy: 'violence',
      media_type: 'text',
    });
    expect(flagged![0]!.json).toMatchObject({ nsfw: true, flagged: true, policy: 'violence' });
    expect(Number(flagged![0]!.json.score)).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps one output without Route by Verdict', async () => {
    const result = await runNode({
      credentials,
      items: texts,
      parameters: {
        resource: 'moderation',
        operation: 'moderateText',
        text: '={{ $json.text }}',
        options: { policy: 'violence' },
      },
    });
    const out = only(result.outputs);
    expect(out.map((i) => i.json.nsfw)).toEqual([false, true]);
  });

  it('moderates an image URL', async () => {
    const out = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'moderation',
            operation: 'moderateImage',
            imageUrl: files.url('portrait-hopper.jpg'),
            options: { threshold: 0.9 },
          },
        })
      ).outputs,
    );
    expect(out[0]!.json).toMatchObject({ media_type: 'image', threshold: 0.9, policy: 'nsfw', nsfw: false });
  });

  it('sends failed items to the Error output with On Error "Continue (using error output)"', async () => {
    const items = [{ json: { text: 'What a lovely day.' } }, { json: { text: '' } }];
    const parameters = { resource: 'moderation', operation: 'moderateText', text: '={{ $json.text }}' };
    const plain = await runNode({ credentials, items, parameters, onError: 'continueErrorOutput' });
    expect(plain.outputs).toHaveLength(2);
    const [success, errors] = plain.outputs!;
    expect(success!.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
    expect(errors).toHaveLength(1);
    expect(errors![0]!.json).toMatchObject({
      error: 'text: must not be empty',
      details: { httpCode: '400' },
    });
    expect(errors![0]!.pairedItem).toEqual({ item: 1 });

    const routed = await runNode({
      credentials,
      items,
      parameters: { ...parameters, routeByVerdict: true },
      onError: 'continueErrorOutput',
    });
    expect(routed.outputs).toHaveLength(3);
    const [passed, flagged, routedErrors] = routed.outputs!;
    expect(passed!.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
    expect(flagged).toEqual([]);
    expect(routedErrors!.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
  });

  it('refuses an expression that gives an object instead of text, so unchecked content never passes', async () => {
    const result = await runNode({
      credentials,
      continueOnFail: true,
      items: [{ json: { post: { body: 'I will kill you tomorrow.' } } }],
      parameters: {
        resource: 'moderation',
        operation: 'moderateText',
        routeByVerdict: true,
        text: '={{ $json.post }}',
        options: { policy: 'violence' },
      },
    });
    const [passed, flagged] = result.outputs!;
    expect(passed).toEqual([]);
    expect(flagged).toHaveLength(1);
    expect(flagged![0]!.json.error).toBe('Text must be text, but its value is an object');
    expect(flagged![0]!.json.description).toContain('JSON.stringify');
  });

  it('refuses a Model expression that gives an object, naming the field', async () => {
    const result = await runNode({
      credentials,
      continueOnFail: true,
      items: [{ json: { pick: { slug: 'scene-painter' } } }],
      parameters: {
        resource: 'generation',
        operation: 'generate',
        outputType: 'image',
        model: { __rl: true, mode: 'id', value: '={{ $json.pick }}' },
        task: 'text-to-image',
        prompt: 'a lighthouse',
      },
    });
    const [item] = only(result.outputs);
    expect(item!.json.error).toBe('Model must be text, but its value is an object');
  });

  it('sends a 400 from the API through as NodeApiError naming the field', async () => {
    const result = await runNode({
      credentials,
      parameters: { resource: 'moderation', operation: 'moderateImage', imageUrl: 'not a url' },
    });
    expect(result.error?.name).toBe('NodeApiError');
    expect((result.error as W.NodeApiError).httpCode).toBe('400');
    expect(result.error?.message).toMatch(/image_url/);
  });
});

describe('video', () => {
  it('generates a video (video/mp4 from the server), then Moderate Video checks its frames', async () => {
    const [video] = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'generation',
            operation: 'generate',
            outputType: 'video',
            model: { __rl: true, mode: 'id', value: 'scene-animator' },
            task: 'text-to-video',
            prompt: 'Waves rolling onto a beach',
            taskParameters: { duration: '4', resolution: '480p' },
            options: { output: 'both' },
          },
        })
      ).outputs,
    );
    expect(video!.json).toMatchObject({ status: 'completed', type: 'video' });
    expect(video!.binary!.data!.mimeType).toBe('video/mp4');
    const bytes = await binaryBytes(video!.binary!.data!);
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp');

    const [verdict] = only(
      (
        await runNode({
          credentials,
          parameters: {
            resource: 'moderation',
            operation: 'moderateVideo',
            videoUrl: video!.json.output_url,
            options: { threshold: 1, maxFrames: 3 },
          },
        })
      ).outputs,
    );
    // With threshold 1 every sampled frame is scored (spec 4.6 rule 3).
    expect(verdict!.json).toMatchObject({ media_type: 'video', frames_checked: 3, threshold: 1 });
    expect(verdict!.json.frames).toHaveLength(3);
  });
});

describe('as an AI Agent tool', () => {
  it('returns the URL and fields, never binary', async () => {
    const outputs = await runAsTool({
      credentials,
      parameters: textToImage({ options: { output: 'file' } }),
    });
    const [item] = outputs[0]!;
    expect(item!.json.status).toBe('completed');
    expect(String(item!.json.output_url)).toMatch(/^http/);
    expect(item!.binary).toBeUndefined();
  });
});
