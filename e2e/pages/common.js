// Shared by the e2e model pages (plain script, no modules).
//
// Optional query: ?policy=cpu (default) | gpu | npu | default | low-power | high-performance

function setStatus(text) {
  document.getElementById('status').textContent = text;
}

function contextOptions() {
  const policy = new URLSearchParams(location.search).get('policy') || 'cpu';
  switch (policy) {
    case 'cpu':
    case 'gpu':
    case 'npu':
      return {deviceType: policy};
    case 'low-power':
    case 'high-performance':
      return {powerPreference: policy};
    case 'default':
      return {};
    default:
      throw new Error(`unknown ?policy=${policy}`);
  }
}

// A context for the ?policy= of the page, after checking that the shim installed the API.
async function createContext() {
  if (!navigator.ml || typeof navigator.ml.createContext !== 'function') {
    throw new Error('navigator.ml is not available (WebNN shim not loaded?)');
  }
  if (typeof MLGraphBuilder !== 'function') {
    throw new Error('MLGraphBuilder is not defined');
  }
  return navigator.ml.createContext(contextOptions());
}
