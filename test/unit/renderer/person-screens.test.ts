import { describe, expect, it } from 'vitest';
import type { LibraryFile } from '../../../src/shared/api';
import { sizeWords, typeLabel, visibleFiles } from '../../../src/renderer/model/library-view';
import { needsRenewal, RENEW_MARGIN_MS, signedUrlExpiry } from '../../../src/renderer/model/signed-url';
import {
  emptyScheduleForm,
  localToIso,
  repeatWords,
  scheduleBody,
  soonWords,
  zoneWords,
} from '../../../src/renderer/model/schedule-form';
import { insertAtCursor } from '../../../src/renderer/model/insert-at-cursor';
import { encodeWav, level, resample } from '../../../src/renderer/model/wav-encoder';
import { useAllowanceStore } from '../../../src/renderer/stores/allowance-store';

const file = (name: string, size: number, mimeType = 'application/octet-stream'): LibraryFile => ({
  id: name,
  name,
  size,
  mimeType,
  url: `http://127.0.0.1/archivos/${name}`,
});

describe('library view', () => {
  const files = [
    file('b-report.pdf', 900, 'application/pdf'),
    file('a-notes.md', 5000, 'text/markdown'),
    file('c.png', 20, 'image/png'),
  ];

  it('searches names and types, case-insensitively', () => {
    expect(visibleFiles(files, 'NOTES', 'recent').map((f) => f.name)).toEqual(['a-notes.md']);
    expect(visibleFiles(files, 'image/', 'recent').map((f) => f.name)).toEqual(['c.png']);
    expect(visibleFiles(files, '  ', 'recent')).toHaveLength(3);
  });

  it('sorts by name, size (largest first), type, or keeps the API order', () => {
    expect(visibleFiles(files, '', 'name').map((f) => f.name)).toEqual([
      'a-notes.md',
      'b-report.pdf',
      'c.png',
    ]);
    expect(visibleFiles(files, '', 'size').map((f) => f.size)).toEqual([5000, 900, 20]);
    expect(visibleFiles(files, '', 'type').map((f) => typeLabel(f))).toEqual(['MD', 'PDF', 'PNG']);
    expect(visibleFiles(files, '', 'recent')).toEqual(files);
  });

  it('says sizes and types as people read them', () => {
    expect(sizeWords(900)).toBe('900 B');
    expect(sizeWords(1536)).toBe('1.5 KB');
    expect(sizeWords(10 * 1024 * 1024)).toBe('10 MB');
    expect(typeLabel({ name: 'README', mimeType: 'text/plain; charset=utf-8' })).toBe('PLAIN');
  });
});

describe('signed file links', () => {
  it('expire 6 h after they were handed out, or earlier when the URL says so', () => {
    const at = Date.UTC(2026, 0, 1);
    expect(signedUrlExpiry('http://h/archivos/x', at)).toBe(at + 6 * 3600_000);
    const exp = Math.floor(at / 1000) + 3600;
    expect(signedUrlExpiry(`http://h/archivos/x?exp=${exp}&sig=s`, at)).toBe(exp * 1000);
  });

  it('are renewed within the margin before expiry', () => {
    expect(needsRenewal(1_000_000 + RENEW_MARGIN_MS + 1, 1_000_000)).toBe(false);
    expect(needsRenewal(1_000_000 + RENEW_MARGIN_MS - 1, 1_000_000)).toBe(true);
  });
});

describe('schedule form', () => {
  it('builds "in N minutes" and "at a time", repeating until a date', () => {
    expect(scheduleBody({ ...emptyScheduleForm, prompt: ' hi ', inMinutes: '3' })).toEqual({
      ok: true,
      body: { prompt: 'hi', inMinutes: 3 },
    });
    const at = '2030-05-01T09:30';
    const built = scheduleBody({
      ...emptyScheduleForm,
      prompt: 'report',
      when: 'at',
      at,
      repeat: true,
      repeatMin: '60',
      until: '2030-05-02T09:30',
    });
    expect(built).toEqual({
      ok: true,
      body: { prompt: 'report', dueAt: localToIso(at), repeatMin: 60, until: localToIso('2030-05-02T09:30') },
    });
  });

  it('says what is missing; values are left to the service', () => {
    expect(scheduleBody({ ...emptyScheduleForm, prompt: '' })).toEqual({
      ok: false,
      problem: expect.stringMatching(/message/),
    });
    expect(scheduleBody({ ...emptyScheduleForm, prompt: 'x', when: 'at', at: '' })).toMatchObject({
      ok: false,
    });
    expect(scheduleBody({ ...emptyScheduleForm, prompt: 'x', inMinutes: 'soon' })).toMatchObject({
      ok: false,
    });
    expect(scheduleBody({ ...emptyScheduleForm, prompt: 'x', inMinutes: '-5' })).toMatchObject({ ok: true });
  });

  it('words due times and repeats', () => {
    const now = Date.UTC(2030, 0, 1, 12);
    expect(soonWords(new Date(now + 4 * 60_000).toISOString(), now)).toBe('in 4 min');
    expect(soonWords(new Date(now - 1000).toISOString(), now)).toBe('due now');
    expect(repeatWords({ repeatMin: null, until: null })).toBe('Once');
    expect(repeatWords({ repeatMin: 30, until: null })).toBe('Repeats every 30 min');
  });

  it('names the time zone with its place and its long name for that date', () => {
    const winter = Date.UTC(2030, 0, 15);
    const summer = Date.UTC(2030, 6, 15);
    expect(zoneWords(winter, 'Europe/Madrid')).toMatch(/^Europe\/Madrid \(.+\)$/);
    expect(zoneWords(winter, 'Europe/Madrid')).not.toBe(zoneWords(summer, 'Europe/Madrid'));
    expect(zoneWords(winter, 'America/New_York')).toMatch(/^America\/New York \(/);
    expect(zoneWords(winter, 'UTC')).toMatch(/^UTC/);
  });
});

describe('dictation', () => {
  it('inserts at the cursor with spaces only where words would touch', () => {
    expect(insertAtCursor('hello world', 5, 5, 'big')).toEqual({ text: 'hello big world', cursor: 9 });
    expect(insertAtCursor('', 0, 0, ' hi ')).toEqual({ text: 'hi', cursor: 2 });
    expect(insertAtCursor('say X now', 4, 5, 'this')).toEqual({ text: 'say this now', cursor: 8 });
    expect(insertAtCursor('a ', 2, 2, 'b')).toEqual({ text: 'a b', cursor: 3 });
  });

  it('encodes 16 kHz mono 16-bit PCM WAV from any input rate', () => {
    const second = new Float32Array(48_000).map((_, i) => Math.sin(i / 10) * 0.5);
    const wav = encodeWav([second.subarray(0, 24_000), second.subarray(24_000)], 48_000);
    const view = new DataView(wav.buffer);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe('RIFF');
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(16_000 * 2);
    expect(wav.byteLength).toBe(44 + 32_000);
    expect(resample(new Float32Array([1, 1, 0, 0]), 4, 2)).toEqual(new Float32Array([1, 0]));
  });

  it('measures silence as 0 and speech-like blocks above it', () => {
    expect(level(new Float32Array(128))).toBe(0);
    expect(level(new Float32Array(128).fill(0.1))).toBeGreaterThan(0.3);
  });
});

describe('allowance notice', () => {
  it('keeps one notice per reason and message, and a dismissed one stays dismissed', () => {
    const store = useAllowanceStore;
    const quota = { code: 'quota_exhausted', status: 402, message: 'Has usado los 1 turnos.' };
    store.getState().report({ code: 'network', message: 'down' });
    expect(store.getState().notice).toBeNull();
    store.getState().report(quota);
    expect(store.getState().notice).toEqual({
      reason: 'quota_exhausted',
      message: 'Has usado los 1 turnos.',
    });
    store.getState().dismiss();
    store.getState().report(quota);
    expect(store.getState().notice).toBeNull();
    store.getState().report({ code: 'trial_expired', status: 402, message: 'Trial over.' });
    expect(store.getState().notice?.reason).toBe('trial_expired');
  });
});
