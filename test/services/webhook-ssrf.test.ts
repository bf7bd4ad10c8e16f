import { describe, expect, it } from 'vitest';
import { isPrivateAddress, resolveWebhookHost } from '../../src/services/webhooks/ssrf.js';
import { sendWebhook } from '../../src/services/webhooks/sender.js';
import { failure } from '../support/helpers.js';
import { startReceiver } from '../support/webhook-receiver.js';

describe('the SSRF rule of webhook URLs', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['fc12::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:8.8.8.8', false],
    ['2001:4860:4860::8888', false],
    ['not-an-ip', true],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses a name that resolves to loopback, naming the address and --allow-private', async () => {
    const e = await failure(resolveWebhookHost('http://localhost:8080/hook', false));
    expect(e).toMatchObject({ code: 'validation' });
    expect(e.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1).*--allow-private/);
    await expect(resolveWebhookHost('http://localhost:8080/hook', true)).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
  });

  it('checks again at delivery time: a refused address receives no request', async () => {
    const receiver = await startReceiver();
    try {
      const url = `http://localhost:${receiver.port}/hooks`;
      const refused = await sendWebhook({
        url,
        secret: 'whsec_' + 'A'.repeat(44),
        id: 'msg_1',
        payload: '{}',
        allowPrivate: false,
      });
      expect(refused).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/refused/) });
      expect(receiver.received).toHaveLength(0);
      const sent = await sendWebhook({
        url: receiver.url,
        secret: 'whsec_' + 'A'.repeat(44),
        id: 'msg_2',
        payload: '{"type":"x"}',
        allowPrivate: true,
      });
      expect(sent).toMatchObject({ ok: true, status: 204 });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const receiver = await startReceiver({ answer: () => 302 });
    try {
      const r = await sendWebhook({
        url: receiver.url,
        secret: 'whsec_' + 'A'.repeat(44),
        id: 'msg_3',
        payload: '{"type":"x"}',
        allowPrivate: true,
      });
      expect(r).toMatchObject({ ok: false, status: 302 });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
