// Drives cudalint's language server with the extension's own launch code (../src/launch),
// as the extension's language client would, under plain node (no VS Code download is
// possible in the tests). Bundled by esbuild to out/test/drive.js; tests/
// test_vscode_extension.py runs it:
//
//   node out/test/drive.js command JSON   the settings read and the server command built
//   node out/test/drive.js session JSON   start the server, open a document, print what
//                                         it published and the code actions' results
//
// JSON: {"config": {cudalint.* settings without the prefix}, "folder": workspace folder,
// "file": document (session), "platform", "env", "home", "existing": [files] (command)}.
import * as child_process from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

import {
  CodeAction,
  CodeActionKind,
  Diagnostic,
  InitializeResult,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
  TextEdit,
  createProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";

import {
  CODE_ACTION_KINDS,
  DOCUMENT_SELECTOR,
  FIX_ALL,
  Host,
  RESTART_SETTINGS,
  needsRestart,
  readSettings,
  serverCommand,
} from "../src/launch";

interface Input {
  config: Record<string, unknown>;
  folder?: string;
  file?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
  existing?: string[];
  timeoutMs?: number;
}

function commandMode(input: Input): unknown {
  const settings = readSettings((key) => input.config[key]);
  const existing = new Set(input.existing ?? []);
  const host: Host = {
    platform: input.platform ?? process.platform,
    env: input.env ?? {},
    home: input.home ?? "/home/user",
    exists: (file) => existing.has(file),
  };
  const server = serverCommand(settings, input.folder, host);
  return {
    settings,
    server,
    restartSettings: RESTART_SETTINGS,
    restartOnTrace: needsRestart((s) => "cudalint.trace.server".startsWith(s)),
    codeActionKinds: CODE_ACTION_KINDS,
    documentSelector: DOCUMENT_SELECTOR,
  };
}

function edits(action: CodeAction | undefined, uri: string): TextEdit[] {
  return action?.edit?.changes?.[uri] ?? [];
}

async function sessionMode(input: Input): Promise<unknown> {
  if (input.file === undefined || input.folder === undefined) {
    throw new Error("session needs file and folder");
  }
  const settings = readSettings((key) => input.config[key]);
  const server = serverCommand(settings, input.folder);
  // As vscode-languageclient's node client starts an Executable over stdio.
  const proc = child_process.spawn(server.command, server.args, {
    cwd: server.options.cwd,
    env: server.options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", resolve));
  const connection = createProtocolConnection(
    new StreamMessageReader(proc.stdout),
    new StreamMessageWriter(proc.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiters: Array<() => void> = [];
  connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    published.push(p);
    waiters.splice(0).forEach((w) => w());
  });
  // requests from the server, answered as VS Code does when nothing is to be said
  connection.onRequest("client/registerCapability", () => null);
  connection.onRequest("window/workDoneProgress/create", () => null);
  connection.onRequest("workspace/configuration", (p: { items: unknown[] }) =>
    p.items.map(() => null));
  connection.listen();

  const timeout = input.timeoutMs ?? 60000;
  const uri = pathToFileURL(input.file).toString();
  const diagnosticsOf = (version: number): Promise<Diagnostic[]> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for version ${version}; stderr: ${stderr}`)),
        timeout,
      );
      const check = (): void => {
        const found = published.find((p) => p.uri === uri && p.version === version);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found.diagnostics);
        } else {
          waiters.push(check);
        }
      };
      check();
    });

  // The client capabilities that matter here, as VS Code's client declares them.
  const init: InitializeResult = await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(input.folder).toString(),
    workspaceFolders: [{ uri: pathToFileURL(input.folder).toString(), name: "folder" }],
    capabilities: {
      general: { positionEncodings: ["utf-16"] },
      textDocument: {
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: {
          dynamicRegistration: true,
          isPreferredSupport: true,
          codeActionLiteralSupport: {
            codeActionKind: { valueSet: [...CODE_ACTION_KINDS, CodeActionKind.Source] },
          },
        },
        hover: { contentFormat: ["markdown", "plaintext"] },
      },
    },
  });
  await connection.sendNotification("initialized", {});
  const text = fs.readFileSync(input.file, "utf-8");
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "cuda-cpp", version: 1, text },
  });
  const diagnostics = await diagnosticsOf(1);
  const document = TextDocument.create(uri, "cuda-cpp", 1, text);
  const whole = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };

  // editor.codeActionsOnSave {"source.fixAll": "explicit"} asks with only: [source.fixAll]
  const fixAll: CodeAction[] = await connection.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: whole,
    context: { diagnostics: [], only: [CodeActionKind.SourceFixAll], triggerKind: 2 },
  });
  const fixed = TextDocument.applyEdits(document, edits(fixAll[0], uri));
  // the light bulb on the first diagnostic
  const first = diagnostics[0];
  const quick: CodeAction[] = first === undefined ? [] : await connection.sendRequest(
    "textDocument/codeAction", {
      textDocument: { uri },
      range: first.range,
      context: { diagnostics: [first], triggerKind: 1 },
    });
  const suppress = quick.find((a) => a.title.startsWith("Suppress "));
  const suppressed = TextDocument.applyEdits(document, edits(suppress, uri));

  await connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  const afterFixAll = await diagnosticsOf(2);
  await connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version: 3 },
    contentChanges: [{ text: suppressed }],
  });
  const afterSuppress = await diagnosticsOf(3);

  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  const code = await Promise.race([
    exited,
    new Promise<string>((resolve) => setTimeout(() => resolve("still running"), timeout).unref()),
  ]);
  connection.dispose();
  if (typeof code === "string") {
    proc.kill();
  }
  return {
    server: { command: server.command, args: server.args, origin: server.origin },
    capabilities: init.capabilities,
    diagnostics,
    fixAll: fixAll.map((a) => ({ title: a.title, kind: a.kind })),
    fixed,
    quick: quick.map((a) => ({ title: a.title, kind: a.kind, isPreferred: a.isPreferred })),
    suppressed,
    afterFixAll,
    afterSuppress,
    exitCode: code,
    stderr,
    fixAllKind: FIX_ALL,
  };
}

async function main(): Promise<void> {
  const [mode, json] = process.argv.slice(2);
  const input = JSON.parse(json ?? "{}") as Input;
  if (input.folder !== undefined) {
    input.folder = path.resolve(input.folder);
  }
  const result = mode === "command" ? commandMode(input) : await sessionMode(input);
  process.stdout.write(JSON.stringify(result) + "\n");
}

main().catch((error: unknown) => {
  process.stderr.write(`drive: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
