// import './comment-line.js';
/* import './comment-block.js'; export * from './c2.js' */
const s1 = "import './string-double.js'";
const s2 = 'import("./string-single.js")';
const re = /import '.\/regex.js'/g;
const re2 = x / import_y / 2;
const t = `import './template-text.js' ${ await import('./in-substitution.js') } export * from './t2.js'`;
const nested = `a ${ `b ${ import('./deep.js') } c` } d`;
const esc = 'it\'s import "./escaped-quote.js"';
const div = 4 / 2; import './real.js';
