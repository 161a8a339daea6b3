export const m24 = 24;
