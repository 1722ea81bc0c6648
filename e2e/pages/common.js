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
