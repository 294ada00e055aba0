// The Board webview's entry: the app shell and its parts register themselves;
// the state module says ready to the host, which then sends every part.
import './components/board-app.ts';
import { store } from './state.ts';

// The panel's HTML already contains the element; mount one if it does not.
if (!document.querySelector('xos-board')) document.body.append(document.createElement('xos-board'));
store.start();
