import React from 'react';
import { x } from "https://esm.sh/x@1";
import y from '//cdn.example.com/y.js';
import './missing.js';
import '../outside/none.js';
import data from 'data:text/javascript,export default 1';
import './readme.md';
export * as ns from 'lodash/fp';
