export const m29 = 29;
