export default 'card';
window.card = 1;
