import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('PUBLIC_BASE_URL', () => {
  it('defaults to this machine on PORT', () => {
    expect(loadConfig({}).publicBaseUrl).toBe('http://127.0.0.1:3000');
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://127.0.0.1:8080');
  });

  it('is taken as given, without a trailing slash, so paths append cleanly', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://pay.example.com/' }).publicBaseUrl).toBe(
      'https://pay.example.com',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/lastro' }).publicBaseUrl).toBe(
      'https://example.com/lastro',
    );
  });

  it('refuses what is not an http(s) URL, naming the setting', () => {
    for (const value of ['pay.example.com', 'ftp://example.com'])
      expect(() => loadConfig({ PUBLIC_BASE_URL: value }), value).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'example' })).toThrow(/^PUBLIC_BASE_URL: /);
  });

  it('refuses a query, a fragment or credentials, which a path appended after them would break', () => {
    for (const value of [
      'https://pay.example.com/?ref=x',
      'https://pay.example.com/#top',
      'https://user:secret@pay.example.com',
    ])
      expect(() => loadConfig({ PUBLIC_BASE_URL: value }), value).toThrow(/^PUBLIC_BASE_URL: /);
  });
});
