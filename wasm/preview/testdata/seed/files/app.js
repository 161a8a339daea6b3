const button = document.querySelector('#hero-button');
const copy = document.querySelector('#cta-copy');

button.addEventListener('click', () => {
  copy.textContent = 'Thanks! We will be in touch.';
  button.textContent = 'Clicked';
});
