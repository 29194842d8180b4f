// The host page's script, bundled for the browser by the test: the official host SDK
// (`AppBridge`) mounts the view in a sandboxed iframe and hands it one tool result, as a host
// with MCP Apps does.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The policy a host derives from the resource's `_meta.ui.csp` (the extension's defaults). */
function hostPolicy(csp = {}) {
  const resources = (csp.resourceDomains || []).join(" ");
  const connect = (csp.connectDomains || []).join(" ") || "'none'";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect}`,
  ].join("; ");
}

/** What the view asked of the host, for the test to read. */
window.hostLog = { messages: [], links: [], sizes: [] };

/** Mounts `html` in a sandboxed iframe `width` pixels wide and sends it `result`. */
window.mountView = async ({ html, csp, result, theme, width }) => {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.title = "fusion UI blocks";
  iframe.style.cssText = `width:${width}px;height:60px;border:0;display:block`;
  document.getElementById("host").append(iframe);

  const bridge = new AppBridge(
    null,
    { name: "fusion-test-host", version: "1.0.0" },
    { openLinks: {}, message: { text: {} } },
    { hostContext: { theme, displayMode: "inline", platform: "web", containerDimensions: { width, maxHeight: 4000 } } },
  );
  bridge.onsizechange = ({ height }) => {
    window.hostLog.sizes.push(height);
    if (height != null) iframe.style.height = `${height}px`;
  };
  bridge.onmessage = async (params) => {
    window.hostLog.messages.push(params);
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    window.hostLog.links.push(url);
    return {};
  };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html.replace("<head>", `<head>\n<meta http-equiv="Content-Security-Policy" content="${hostPolicy(csp)}">`);
  await initialized;
  await bridge.sendToolResult(result);
  window.hostBridge = bridge;
};
