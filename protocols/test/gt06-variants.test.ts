// GT06 layout variants and framing edge cases, from real frames (Traccar's corpus), asserting the
// values our decoder produces rather than only that something comes out.
import { describe, expect, it } from 'vitest';
import { Gt06Framer, createGt06State, decodeGt06Frame, decodeWatchFrame, gt06Device, parseGt06Frame } from '../src/index.js';

function decode(hex: string, model?: string) {
  const s = createGt06State(model);
  decodeGt06Frame(gt06Device.login('123456789012345'), s);
  return decodeGt06Frame(Buffer.from(hex, 'hex'), s);
}

describe('gt06 variants', () => {
  it('SL4X 0x32: 10-byte cell, then status, language and the altitude field', () => {
    const m = decode('7878293218061301261ccd0274c4ad050d7c960018000a02d4000ac3c70dbdc40b46f004210202af001784290d0a').messages[0];
    expect(m.cells).toEqual([{ mcc: 724, mnc: 10, lac: 0xc3c7, cid: 0x0dbdc40b }]);
    expect(m.fix?.altitude).toBe(687);
  });
  it('4G cell (LAC 4, CID 8) in a 0xA4 fence alarm, alarm from the extension byte', () => {
    const m = decode('78782DA4150817073B10CF032EEA9C0B6CE0800015141001CC0100009A00000000000A6F24014605041900FF01908A640D0A').messages[0];
    expect(m.cells?.[0]).toMatchObject({ mcc: 460, mnc: 1, lac: 0x9a00, cid: 0x0a6f2401 });
    expect(m.alarms).toContain('lowBattery');
    expect(m.attributes?.geofence).toBe(0xff);
  });
  it('model decides the 0x13 layout', () => {
    expect(decode('78780a13560604f0830ccf986f0d0a', 'LW4G-4B').messages[0].status?.power).toBeCloseTo(13.1);
    expect(decode('78780a13460b120400160642c20d0a', 'R11').messages[0].status?.power).toBeCloseTo(28.34);
    expect(decode('78780a134506560b0102242b850d0a', 'SEEWORLD').messages[0].status?.power).toBe(11);
    // Without a model the same frame is the Concox layout: no supply voltage is invented.
    expect(decode('78780a13460b120400160642c20d0a').messages[0].status?.power).toBeUndefined();
  });
  it('driver cards: 0x61 iButton, 0x25 card block, 0x16 card variant', () => {
    expect(decode('78782e610869412070143950190a1e0d3806c802b0eb0f0561ecdc00d80002d404000004215f0e000001395581000d1ca60d0a').messages[0].attributes?.driverUniqueId).toBe('20534657');
    const card = decode('78784e25010356354871186947190909100e0f190909100e0fbf02846fe805078c900018000a02d410c80b0c352c17044605112a4700020000000005840f0102353130303635383036424446030113ed780d0a').messages[0];
    expect(card.attributes?.driverUniqueId).toBe('0235313030363538303642444603');
    expect(card.status?.power).toBeCloseTo(12.97);
    expect(card.fix).toMatchObject({ valid: true });
    expect(card.fix!.lat).toBeCloseTo(-23.463, 3);
  });
  it('JC400 0x95 alarm: flags before a two-byte speed, power, event and media files', () => {
    const m = decode('78785995ffff01170719152013df0163d45f041ee52018be002f00876900004556454e545f3836323739383035303137353131325f30303030303030305f323032335f30375f32355f31385f33325f30355f31342e6d70340119d15a0d0a').messages[0];
    expect(m.fix?.speed).toBe(0x2f);
    expect(m.status?.power).toBeCloseTo(13.5);
    expect(m.attributes?.event).toBe(0x69);
    expect(String(m.attributes?.eventFiles)).toMatch(/^EVENT_.*\.mp4$/);
  });
});

describe('gt06 framing edge cases', () => {
  it('a frame without serial and CRC still yields its GPS block, and no sequence number', () => {
    const r = decode('7878121011091c0b1b2999058508040097a89e0034520d0a');
    expect(r.messages[0].fix).toMatchObject({ valid: true });
    expect(r.sequence).toBeUndefined();
  });
  it('gives the serial of a numbered frame as its sequence number', () => {
    const state = {};
    expect(decodeGt06Frame(gt06Device.login('865000000000031', 7), state).sequence).toBe(7);
    expect(decodeGt06Frame(gt06Device.heartbeat(65535), state).sequence).toBe(65535);
  });
  it('a frame that lost its final 0A keeps its full content', () => {
    const info = parseGt06Frame(Buffer.from('78783c3400000000130a1906011105029b4d450b1828d5001c00000000009e7d014e140fc000004e990000000004c301a442210000020101c001c0000591aa0d', 'hex'));
    expect(info).toMatchObject({ crcOk: true, serial: 5 });
  });
  it('WiFi reports whose length byte is the AP count are framed on 0D 0A, in the stream too', () => {
    const frame = Buffer.from('787803691604130318491475905BD30E25001E10BBF7635D14759006E626560501CC0028660F213228660F1F2828660EA81E286610731428660F20140D0A', 'hex');
    const f = new Gt06Framer();
    const out = f.push(Buffer.concat([frame, gt06Device.heartbeat(2)]));
    expect(out.frames).toEqual([frame, gt06Device.heartbeat(2)]);
    const m = decode(frame.toString('hex')).messages[0];
    expect(m.wifi).toHaveLength(3);
    expect(m.cells).toHaveLength(5);
  });
  it('short and odd frames give no message and never throw', () => {
    for (const hex of ['78780510', '787805a0000101', '78781511170103100e1f99', '7979000594', '78780d1f00000000000000020d0a']) {
      expect(() => decode(hex)).not.toThrow();
    }
    expect(decode('787805a0000101').messages).toEqual([]);
  });
});

describe('watch UD_LTE tail', () => {
  it('speed from the fixed field, accuracy from the field after the Wi-Fi list', () => {
    const r = decodeWatchFrame('[3G*2104326058*00E9*UD_LTE,300621,135101,A,32.162652,N,34.888748,E,30.84,265.158,65.621,18,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,3,ES4104,22:74:1d:39:64:ff,-46,metropoline-wifi,a8:3f:a1:e0:66:ba,-89,Egged.co.il,00:0c:42:51:cf:cd,-81,1.7055488]');
    expect(r.messages[0].fix).toMatchObject({ speed: 30.84, accuracy: 1.7055488 });
  });
  it('no accuracy when the tail is 0 or the layout has no tail', () => {
    const zero = decodeWatchFrame('[3G*1*0080*UD_LTE,300621,135101,A,32.1,N,34.8,E,5,0,0,5,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,1,x,22:74:1d:39:64:ff,-46,0.0]');
    expect(zero.messages[0].fix?.accuracy).toBeUndefined();
    const plain = decodeWatchFrame('[3G*1*0060*UD,300621,135101,A,32.1,N,34.8,E,5,0,0,5,100,83,0,0,00000000,1,1,425,01,10223,8012811,100]');
    expect(plain.messages[0].fix).toMatchObject({ speed: 5 });
    expect(plain.messages[0].fix?.accuracy).toBeUndefined();
  });
});

describe('gt06 stream framing tolerance', () => {
  it('takes frames whose LEN is a byte short, when a frame start follows', () => {
    const shortLen = Buffer.from('7878121011091c0b1b2999058508040097a89e0034520d0a', 'hex');
    const f = new Gt06Framer();
    const hb = gt06Device.heartbeat(3);
    expect(f.push(Buffer.concat([shortLen, hb])).frames).toEqual([shortLen, hb]);
  });
});
