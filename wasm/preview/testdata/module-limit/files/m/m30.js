export const m30 = 30;
