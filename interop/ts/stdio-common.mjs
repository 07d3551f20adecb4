// stdio-common.mjs: what the stdio runners (stdio-sdk.mjs, stdio-elicitation.mjs,
// stdio-inspector.mjs) share: where app-mcp and the app's config dir are, the arguments every
// client launches app-mcp with, and a recorder of the messages that cross app-mcp's stdin and
// stdout, so a check reads the wire and not only what the SDK reports.

/** stdioTarget returns {bin, configDir}: argv[2] and argv[3], or $APP_MCP_BIN and $APP_MCP_CONFIG_DIR. */
export function stdioTarget() {
  const bin = process.argv[2] || process.env.APP_MCP_BIN;
  const configDir = process.argv[3] || process.env.APP_MCP_CONFIG_DIR;
  if (!bin || !configDir) {
    console.error(`usage: node ${process.argv[1]} <path to app-mcp> <config dir of the running app> (or set APP_MCP_BIN and APP_MCP_CONFIG_DIR)`);
    process.exit(2);
  }
  return { bin, configDir };
}

/**
 * bridgeArgs are app-mcp's arguments: the running app's config dir, and --no-start: the app
 * under test is already running, and a check that fails must not leave a detached app behind.
 */
export function bridgeArgs(configDir) {
  return ['--config-dir', configDir, '--no-start', '--log-level', 'info'];
}

/**
 * bridgeEnv is the environment app-mcp is launched with (the SDK stdio transports add it to
 * their small default set: HOME, PATH, ...). Without a token app-mcp authenticates with the
 * handshake file's bridge token (readOnly); with one, APP_MCP_TOKEN is set.
 */
export function bridgeEnv(token) {
  return token ? { APP_MCP_TOKEN: token } : {};
}

/**
 * record wraps a stdio client transport instance (never a subclass: the v2 SDK negotiates on a
 * sibling process only for the base class) and returns the log of every JSON-RPC message it
 * sends to app-mcp ({dir: 'out', msg}) and receives from it ({dir: 'in', msg}).
 */
export function record(transport) {
  const log = [];
  const send = transport.send;
  transport.send = function (msg, ...rest) {
    log.push({ dir: 'out', msg: JSON.parse(JSON.stringify(msg)) });
    return send.call(this, msg, ...rest);
  };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler = fn && ((msg, ...rest) => {
        log.push({ dir: 'in', msg: JSON.parse(JSON.stringify(msg)) });
        return fn(msg, ...rest);
      });
    },
  });
  return log;
}

/** answerTo returns the message received in log that answers the request with this id. */
export function answerTo(log, id) {
  return log.find((e) => e.dir === 'in' && e.msg.id === id && !('method' in e.msg))?.msg;
}

/** requestsSent returns the requests of method sent in log. */
export function requestsSent(log, method) {
  return log.filter((e) => e.dir === 'out' && e.msg.method === method).map((e) => e.msg);
}
