export const m21 = 21;
