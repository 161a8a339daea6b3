export const m28 = 28;
