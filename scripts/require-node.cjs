// `npm start`, `npm run dev` and `npm test` stop here on a Node.js older than package.json's engines ask for, with one
// line saying how to get a newer one, instead of running on (npm only warns, at install) into obscure failures later.
// Plain ES5 CommonJS on purpose: it must run on the old Node it refuses.
"use strict";

var engines = require("../package.json").engines.node; // ">=22"
var required = Number(/^>=\s*(\d+)$/.exec(engines)[1]);

/** The line to stop with when `version` (as process.version, "v20.20.2") is older than required; undefined otherwise. */
function tooOld(version) {
  if (Number(/^v(\d+)\./.exec(version)[1]) >= required) return undefined;
  return (
    "Node.js " +
    required +
    " or newer is needed (this is " +
    version +
    "); get Node.js 24 with: " +
    "npm install -g --prefix ~/.local/node24 node@24 && export PATH=~/.local/node24/bin:$PATH"
  );
}

var problem = tooOld(process.version);
if (problem) {
  console.error(problem);
  process.exit(1);
}

module.exports = { tooOld: tooOld };
