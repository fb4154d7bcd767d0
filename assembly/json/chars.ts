// The ASCII character codes the JSON grammar, the DOM and the writer compare bytes and UTF-16
// units with. Compile-time constants: every use is the literal itself, as before they had names.

// @ts-ignore: decorator
@inline export const CHAR_BACKSPACE: u32 = 0x08;
// @ts-ignore: decorator
@inline export const CHAR_TAB: u32 = 0x09;
// @ts-ignore: decorator
@inline export const CHAR_LF: u32 = 0x0a;
// @ts-ignore: decorator
@inline export const CHAR_FORM_FEED: u32 = 0x0c;
// @ts-ignore: decorator
@inline export const CHAR_CR: u32 = 0x0d;
/** the space, and the first code that is not a control character */
// @ts-ignore: decorator
@inline export const CHAR_SPACE: u32 = 0x20;
// @ts-ignore: decorator
@inline export const CHAR_QUOTE: u32 = 0x22;
// @ts-ignore: decorator
@inline export const CHAR_PLUS: u32 = 0x2b;
// @ts-ignore: decorator
@inline export const CHAR_COMMA: u32 = 0x2c;
// @ts-ignore: decorator
@inline export const CHAR_MINUS: u32 = 0x2d;
// @ts-ignore: decorator
@inline export const CHAR_DOT: u32 = 0x2e;
// @ts-ignore: decorator
@inline export const CHAR_SLASH: u32 = 0x2f;
// @ts-ignore: decorator
@inline export const CHAR_0: u32 = 0x30;
// @ts-ignore: decorator
@inline export const CHAR_1: u32 = 0x31;
// @ts-ignore: decorator
@inline export const CHAR_COLON: u32 = 0x3a;
// @ts-ignore: decorator
@inline export const CHAR_OPEN_BRACKET: u32 = 0x5b;
// @ts-ignore: decorator
@inline export const CHAR_BACKSLASH: u32 = 0x5c;
// @ts-ignore: decorator
@inline export const CHAR_CLOSE_BRACKET: u32 = 0x5d;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_A: u32 = 0x61;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_B: u32 = 0x62;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_E: u32 = 0x65;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_F: u32 = 0x66;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_N: u32 = 0x6e;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_R: u32 = 0x72;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_T: u32 = 0x74;
// @ts-ignore: decorator
@inline export const CHAR_LOWER_U: u32 = 0x75;
// @ts-ignore: decorator
@inline export const CHAR_OPEN_BRACE: u32 = 0x7b;
// @ts-ignore: decorator
@inline export const CHAR_CLOSE_BRACE: u32 = 0x7d;
/** the first code that is not ASCII */
// @ts-ignore: decorator
@inline export const CHAR_NON_ASCII: u32 = 0x80;
/** the bit that separates an ASCII letter's upper and lower case */
// @ts-ignore: decorator
@inline export const ASCII_CASE_BIT: u32 = 0x20;
