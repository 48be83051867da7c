// A Bluetooth LE thermal printer through Web Bluetooth: pair once, remember it, send ESC/POS
// bytes (print/escpos.js) in writes the link always takes. Browser glue: the bytes are made
// elsewhere. Imported on the first print tap only (no screen loads it).
//
// Pairing is remembered in IndexedDB (meta "fiscal-printer": the device id and name, the paper
// width). Where the browser lists the devices this site may use (navigator.bluetooth.getDevices,
// Chromium with its permission backend), a print connects to the saved printer with no prompt.
// Elsewhere the browser forgets the permission when the page closes: the print tap (a user
// gesture) asks again with a chooser filtered to the saved printer's name, so one tap on it
// confirms. Within one page the device stays known and connected.
import { del, get, put } from '../data/db.js';

const KEY = 'fiscal-printer';
const uuid16 = (n) => `0000${n.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;
// GATT services of portable ESC/POS printers, each with a write characteristic found by its
// properties (its UUID varies between models): the 0x18F0 (write 0x2AF1), 0xFF00 (0xFF02) and
// 0xFFE0 (0xFFE1, the serial bridges of many cheap modules) families, the "e7810a71" service of
// many Chinese models, and Microchip/ISSC's transparent UART.
export const PRINTER_SERVICES = [
  uuid16(0x18f0), uuid16(0xff00), uuid16(0xffe0),
  'e7810a71-73ae-499d-8c15-faa9aef0c3f2',
  '49535343-fe7d-4ae5-8fa9-9fafd205e455',
];
// Web Bluetooth does not tell the ATT MTU the link agreed. A write longer than the MTU − 3 is
// refused or cut by some phones and printers; 20 bytes (the minimum MTU of 23, less 3) fit every
// link, so every write is at most that.
export const CHUNK = 20;

export class PrinterError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

export const bluetoothAvailable = () => typeof navigator !== 'undefined' && Boolean(navigator.bluetooth?.requestDevice);

/** The saved printer {id, name (null when it gives none), paper} or null. */
export const savedPrinter = async () => (await get('meta', KEY)) || null;

/** Paper width (58 or 80 mm) of the saved printer, or of the next one paired. */
export async function setPaper(paper) {
  const saved = (await savedPrinter()) || {};
  await put('meta', { ...saved, paper: paper === 80 ? 80 : 58 }, KEY);
}

let current = null; // the BluetoothDevice of this page, once chosen or found

/** Forget the printer: the saved pairing and, where the browser can, its permission. */
export async function forgetPrinter() {
  const saved = await savedPrinter();
  const device = current || (saved ? await rememberedDevice(saved) : null);
  current = null;
  if (device?.gatt?.connected) device.gatt.disconnect();
  if (device?.forget) await device.forget().catch(() => {});
  await del('meta', KEY);
}

async function rememberedDevice(saved) {
  if (!saved?.id || !navigator.bluetooth.getDevices) return null;
  const devices = await navigator.bluetooth.getDevices();
  return devices.find((d) => d.id === saved.id) || null;
}

function choose(saved) {
  // The saved printer alone when there is one (a one-tap prompt), else any printer offering
  // one of the known services.
  const filters = saved?.name ? [{ name: saved.name }] : PRINTER_SERVICES.map((s) => ({ services: [s] }));
  return navigator.bluetooth.requestDevice({ filters, optionalServices: PRINTER_SERVICES });
}

async function writeCharacteristic(device) {
  const server = device.gatt.connected ? device.gatt : await device.gatt.connect();
  for (const service of PRINTER_SERVICES) {
    let characteristics;
    try {
      characteristics = await (await server.getPrimaryService(service)).getCharacteristics();
    } catch {
      continue; // not this printer's service
    }
    const found = characteristics.find((c) => c.properties.writeWithoutResponse)
      || characteristics.find((c) => c.properties.write);
    if (found) return found;
  }
  throw new PrinterError('no_write', 'Esta impressora não tem o serviço de impressão conhecido (ESC/POS por Bluetooth LE).');
}

/**
 * Pair a printer (chooser) or find the saved one, and remember it. Must run from a tap: the
 * chooser needs a user gesture. `fresh`: ask for any printer even when one is saved.
 */
export async function connectPrinter({ fresh = false } = {}) {
  if (!bluetoothAvailable()) throw new PrinterError('no_bluetooth', 'Este navegador não imprime por Bluetooth: use "Compartilhar cópia (PDF)".');
  if (navigator.bluetooth.getAvailability && !(await navigator.bluetooth.getAvailability())) {
    throw new PrinterError('bluetooth_off', 'Bluetooth desligado ou ausente: ligue o Bluetooth do celular e tente de novo.');
  }
  const saved = fresh ? null : await savedPrinter();
  let device = !fresh && current && (!saved || current.id === saved.id) ? current : null;
  if (!device && saved) device = await rememberedDevice(saved);
  if (!device) {
    try {
      device = await choose(saved);
    } catch (error) {
      if (error?.name === 'NotFoundError') throw new PrinterError('cancelled', 'Nenhuma impressora escolhida.');
      throw new PrinterError('chooser', `Não foi possível procurar impressoras: ${error?.message || error}`);
    }
  }
  let characteristic;
  try {
    characteristic = await writeCharacteristic(device);
  } catch (error) {
    if (error instanceof PrinterError) throw error;
    throw new PrinterError('connect', `Não foi possível conectar à impressora${device.name ? ` ${device.name}` : ''}: confira se está ligada e perto.`);
  }
  const previous = (await savedPrinter()) || {};
  // A printer that gives no name is asked for again by its services (the chooser filters on a name).
  await put('meta', { id: device.id, name: device.name || null, paper: previous.paper === 80 ? 80 : 58 }, KEY);
  current = device;
  return { device, characteristic };
}

/** Send `bytes` to the printer in writes of CHUNK bytes; `onProgress(sent, total)`. */
export async function printBytes(bytes, { onProgress = () => {}, fresh = false } = {}) {
  const { device, characteristic } = await connectPrinter({ fresh });
  const write = characteristic.properties.writeWithoutResponse
    ? (part) => characteristic.writeValueWithoutResponse(part)
    : (part) => characteristic.writeValueWithResponse(part);
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      await write(bytes.slice(at, at + CHUNK)); // one GATT operation at a time
      onProgress(Math.min(at + CHUNK, bytes.length), bytes.length);
    }
  } catch (error) {
    throw new PrinterError('write', `A impressão parou (${error?.message || error}): confira a impressora e imprima de novo.`);
  }
  return { name: device.name || null };
}
