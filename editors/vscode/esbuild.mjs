// Bundles the extension (src/extension.ts, with vscode-languageclient, into
// out/extension.js: the package's "main"; `vscode` stays external) and the tests'
// drivers (test/*.ts -> out/test/, which .vscodeignore leaves out of the .vsix).
//   node esbuild.mjs               bundle, with source maps
//   node esbuild.mjs --production  minified, no source maps (vscode:prepublish)
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
  external: ["vscode"],
};
const builds = [
  { ...common, entryPoints: ["src/extension.ts"], outfile: "out/extension.js" },
  { ...common, entryPoints: ["test/drive.ts"], outfile: "out/test/drive.js" },
  // the extension with the language client left out, for test/activate.ts's stand-in
  {
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: "out/test/extension-stubbed.js",
    external: ["vscode", "vscode-languageclient/node"],
  },
  { ...common, entryPoints: ["test/activate.ts"], outfile: "out/test/activate.js" },
];
if (watch) {
  for (const options of builds) {
    await (await esbuild.context(options)).watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
