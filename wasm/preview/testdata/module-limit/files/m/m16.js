export const m16 = 16;
