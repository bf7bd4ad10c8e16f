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
    // IPv4-compatible (deprecated): every one, whatever it carries
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::8.8.8.8', true],
    ['0:0:0:0:0:0:a00:1', true],
    // IPv4-mapped and -translated: judged by the IPv4 address inside
    ['0:0:0:0:0:ffff:10.1.2.3', true],
    ['::FFFF:C0A8:0101', true],
    ['::ffff:0:127.0.0.1', true],
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:8.8.8.8', false],
    // 6to4: the IPv4 address in groups 2 and 3
    ['2002:7f00:1::', true],
    ['2002:a00:1::1', true],
    ['2002:c0a8:101:0:0:0:0:1', true],
    ['2002:a9fe:a9fe::', true],
    ['2002:808:808::1', false],
    // NAT64: the well-known prefix carries the IPv4 address; a local-use prefix is the network's own
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b:1::8.8.8.8', true],
    // Teredo, ORCHID, benchmarking, documentation, SRv6, a zone id
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:10::1', true],
    ['2001:2::1', true],
    ['3fff::1', true],
    ['5f00::1', true],
    ['fe80::1%eth0', true],
    ['[::1]', true],
    ['192.88.99.1', true],
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

  it('refuses every other spelling of a loopback address: the receiver on 127.0.0.1 gets nothing', async () => {
    const receiver = await startReceiver();
    try {
      const port = receiver.port;
      const spellings = [
        `http://0x7f.0.0.1:${port}/`,
        `http://0177.0.0.1:${port}/`,
        `http://017700000001:${port}/`,
        `http://2130706433:${port}/`,
        `http://127.1:${port}/`,
        `http://127.000.000.001:${port}/`,
        `http://%31%32%37.0.0.1:${port}/`,
        `http://127.0.0.1.:${port}/`,
        `http://0:${port}/`,
        `http://0.0.0.0:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`,
        `http://[::127.0.0.1]:${port}/`,
        `http://[::ffff:0:127.0.0.1]:${port}/`,
        `http://[2002:7f00:1::]:${port}/`,
        `http://[64:ff9b::127.0.0.1]:${port}/`,
        `http://[::1]:${port}/`,
        `http://localhost:${port}/`,
        `http://localhost.:${port}/`,
        `http://LOCALHOST:${port}/`,
      ];
      for (const url of spellings) {
        const added = await failure(resolveWebhookHost(url, false));
        expect(added, url).toMatchObject({ code: 'validation' });
        const sent = await sendWebhook({
          url,
          secret: 'whsec_' + 'A'.repeat(44),
          id: 'm',
          payload: '{}',
          allowPrivate: false,
        });
        expect(sent, url).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/refused|resolve/) });
      }
      expect(receiver.received).toHaveLength(0);
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
