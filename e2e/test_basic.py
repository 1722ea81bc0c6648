"""(a) relu(add(a, b)) in a real page, through the shim, on the host."""

import numpy as np


def test_relu_add_in_a_browser(host, page):
    page.goto(f"{host.url}/basic.html")
    a = [1.0, -2.0, 3.5, -4.0, 0.0, 6.25]
    b = [0.5, 1.0, -5.0, 2.0, -0.5, 1.0]
    r = page.evaluate("([a, b]) => window.runBasic(a, b)", [a, b])
    expected = np.maximum(np.add(a, b, dtype=np.float32), 0)
    assert r["shape"] == [2, 3] and r["dataType"] == "float32"
    np.testing.assert_array_equal(np.array(r["result"], np.float32), expected)
