# RUN: python vulkan_idle_device.py   (from the project's .venv; lavapipe installed)
# An idle IREE Vulkan device on lavapipe keeps two threads busy; listing the driver's devices does not.
import glob
import os
import time

import iree.runtime as rt


def busy_threads(seconds: float = 2.0) -> dict[str, float]:
    """CPU seconds each thread of this process used over `seconds` of sleep (those above 0.05)."""
    def cpu():
        out = {}
        for t in glob.glob("/proc/self/task/*"):
            f = open(t + "/stat").read().rsplit(")", 1)[1].split()
            out[os.path.basename(t)] = (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
        return out
    a = cpu()
    time.sleep(seconds)
    b = cpu()
    return {k: round(v - a.get(k, 0.0), 2) for k, v in b.items() if v - a.get(k, 0.0) > 0.05}


driver = rt.get_driver("vulkan")
print("devices:", [d["name"] for d in driver.query_available_devices()])
print("after listing devices, busy threads:", busy_threads())
device = driver.create_device_by_uri("vulkan")
print("with an idle device, busy threads:", busy_threads())   # two threads at ~2 CPU seconds each
del device
print("after the device is released:", busy_threads())
