export const m26 = 26;
