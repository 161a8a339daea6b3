export { a as default } from '/js/a.js';
import './c.js';
