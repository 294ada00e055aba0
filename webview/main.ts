// The Board webview's entry: the app shell and its parts register themselves; the
// store is made here with the host's endpoint and the page, and given to <xos-board>,
// which provides it to the parts. Then it says ready to the host, which sends every part.
import './components/board-app.ts';
import { BoardStore } from './state.ts';
import { connectHost } from './transport.ts';

const page = document.documentElement;
const store = new BoardStore(connectHost(), {
  lang: page.lang,
  setLang: (locale) => {
    page.lang = locale;
  },
});

// The panel's HTML already contains the element; mount one if it does not.
const board = document.querySelector('xos-board') ?? document.body.appendChild(document.createElement('xos-board'));
board.store = store;
store.start();
