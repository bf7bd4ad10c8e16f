// fontkit ships no types: what the PDF renderer asks of a font before handing it to pdfkit (which takes a fontkit
// font as well as a file name, and asks the rest of it itself).
declare module 'fontkit' {
  /** Features by their OpenType tag: true turns one on, false turns off one the script's shaper would apply. */
  export type FeatureSwitches = Record<string, boolean>;
  export interface Font {
    layout(text: string, features?: string[] | FeatureSwitches, ...rest: unknown[]): unknown;
  }
  export function openSync(path: string): Font;
}
