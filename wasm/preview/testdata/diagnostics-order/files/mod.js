import './gone.js';
import './gone.js';
import 'vue';
