export const m32 = 32;
