#!/usr/bin/python3
"""vqhip_report's tests.

usage: test_report.py VQHIP_REPORT LOG_DIR [--browser] [--keep DIR]

LOG_DIR holds libvmaf's own logs of one clip (tests/logs/libvmaf: clip.json,
clip.xml, clip.csv). Without --browser: the statistics against numpy, the
BD-rate against an independent PCHIP computation, bad input and exit codes,
thumbnails from real video files (when the tool was built with FFmpeg), CAMBI
heatmaps. With --browser: headless Chromium, network off, opens a report,
takes a screenshot and the DOM must hold the curves and the table's numbers.
Exit 77 (skip) with --browser when Chromium is not installed. --keep DIR
keeps the reports and the screenshot there.
"""
import base64
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser

import numpy as np

sys.dont_write_bytecode = True  # nothing left in the source tree
import bdrate_reference  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import checks  # noqa: E402
from checks import check  # noqa: E402


def run(tool, *args, timeout=60):
    p = subprocess.run([tool, *args], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def synth(path, frames, *extra):
    subprocess.run([sys.executable, os.path.join(HERE, "make_synthetic_log.py"),
                    path, "--frames", str(frames), *extra], check=True)


def read_log(path):
    """frame numbers and {output: [values]} as the log has them (NaN: null)."""
    with open(path) as f:
        text = f.read()
    series, nums = {}, []
    if text.lstrip().startswith("{"):
        frames = [(fr["frameNum"], fr["metrics"]) for fr in json.loads(text)["frames"]]
    elif text.lstrip().startswith("<"):
        frames = []
        for fr in ET.fromstring(text).iter("frame"):
            m = {k: float(v) for k, v in fr.attrib.items() if k != "frameNum"}
            frames.append((int(fr.attrib["frameNum"]), m))
    else:
        rows = list(csv.reader(text.splitlines()))
        head = rows[0]
        frames = [(int(r[0]), {head[i]: float(r[i]) for i in range(1, len(r))
                               if r[i] != ""}) for r in rows[1:] if r]
    for i, (num, metrics) in enumerate(frames):
        nums.append(num)
        for k, v in metrics.items():
            series.setdefault(k, [math.nan] * i)
            series[k].append(math.nan if v is None else float(v))
        for k in series:
            if len(series[k]) < i + 1:
                series[k].append(math.nan)
    return nums, series


def data_block(html):
    m = re.search(r'<script type="application/json" id="vqhip-data">(.*?)</script>',
                  html, re.S)
    return json.loads(m.group(1))


class Cells(HTMLParser):
    """Rows of the statistics tables: (log, output, stat) -> (data-value, text)."""

    def __init__(self):
        super().__init__()
        self.cells, self.row, self.cell = {}, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-output" in a:
            self.row = (a["data-log"], a["data-output"])
        elif tag == "td" and self.row and "data-stat" in a:
            self.cell = [a["data-stat"], a.get("data-value"), ""]

    def handle_data(self, data):
        if self.cell:
            self.cell[2] += data

    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            stat, value, text = self.cell
            self.cells[self.row + (stat,)] = (value, text)
            self.cell = None
        elif tag == "tr":
            self.row = None


def shown(v):
    return "n/a" if v is None else ("%.6f" % v if v == 0 or abs(v) >= 1e-3 else "%.6e" % v)


def numpy_stats(vals):
    a = np.array([v for v in vals if math.isfinite(v)], dtype=np.float64)
    st = {"n": len(a), "mean": np.mean(a), "min": np.min(a), "max": np.max(a),
          "harmonic_mean": 1.0 / np.mean(1.0 / (a + 1.0)) - 1.0}
    for p in (1, 5, 10, 20, 50):
        st["p%d" % p] = np.percentile(a, p)
    return st


def test_numbers(tool, logdir, tmp):
    logs = [os.path.join(logdir, n) for n in ("clip.json", "clip.xml", "clip.csv")]
    syn = os.path.join(tmp, "syn.json")
    synth(syn, 20000, "--nulls", "--windows", "--seed", "7")
    out = os.path.join(tmp, "numbers.html")
    rc, _, err = run(tool, "-o", out, "--worst", "12", *logs, syn)
    check(rc == 0, "report of libvmaf's logs: exit %d (%s)" % (rc, err.strip()))
    html = open(out).read()
    data = data_block(html)
    cells = Cells()
    cells.feed(html)
    exact = total = 0
    for path, log in zip(logs + [syn], data["logs"]):
        nums, series = read_log(path)
        check(log["frames"] == len(nums), "%s: frame count" % path)
        for name, vals in series.items():
            ref, got = numpy_stats(vals), log["outputs"][name]
            check(got["n"] == ref["n"], "%s %s: n" % (path, name))
            for k in ("mean", "harmonic_mean", "min", "max", "p1", "p5", "p10",
                      "p20", "p50"):
                total += 1
                exact += got[k] == ref[k]
                # min, max and percentiles as numpy's to the bit; the means
                # within rounding, should a numpy sum otherwise than 1.24
                # (the tool sums as it does: equal to the bit there)
                tol = 0 if k not in ("mean", "harmonic_mean") else 1e-12 * max(1, abs(ref[k]))
                check(abs(got[k] - ref[k]) <= tol, "%s %s %s: %r != numpy %r"
                      % (path, name, k, got[k], ref[k]))
                cell = cells.cells.get((log["label"], name, k))
                check(cell is not None and float(cell[0]) == got[k] and
                      cell[1] == shown(got[k]), "%s %s %s: table cell %r"
                      % (path, name, k, cell))
        prim = np.array(series["vmaf"])
        order = [i for i in np.argsort(np.where(np.isfinite(prim), prim, np.inf),
                                       kind="stable")][:12]
        check([w["frame"] for w in log["worst"]] == [nums[i] for i in order],
              "%s: worst frames" % path)
    check(data["logs"][3]["windows"] == 2 and data["logs"][3]["events"] == 1,
          "windows and events read")
    check('<table class="windows"' in html and '<table class="events"' in html,
          "windows and events shown")
    check("has 20000 frames" in html, "frame count mismatch noted")
    print("numbers: %d of %d statistics equal numpy's to the bit" % (exact, total))


def test_vqhip_windows(tool, tmp):
    """vqhip's windows section (docs/LOGS.md: {"frames": N, "list": [...]}):
    a row a window, its frame range where the charts mark it, its
    statistics as OUTPUT.STAT columns."""
    path = os.path.join(tmp, "win.json")
    synth(path, 100, "--seed", "3")
    log = json.load(open(path))
    wins = [(0, 39, 40), (40, 79, 40), (80, 99, 20)]
    log["windows"] = {"frames": 40, "list": [
        {"index": i, "first_frame": a, "last_frame": b, "frames": n,
         "scored": n, "start": a / 25.0, "end": b / 25.0, "partial": i == 2,
         "metrics": {"vmaf": {"mean": 80.5 + i, "perc5": 70.25 + i}}}
        for i, (a, b, n) in enumerate(wins)]}
    with open(path, "w") as f:
        json.dump(log, f)
    out = os.path.join(tmp, "win.html")
    rc, _, err = run(tool, "-o", out, path)
    check(rc == 0, "report of a log with vqhip's windows: exit %d (%s)" % (rc, err.strip()))
    html = open(out).read()
    check(data_block(html)["logs"][0]["windows"] == 3, "vqhip's windows read: 3")
    i = html.find('<table class="windows"')
    table = html[i:html.find("</table>", i)] if i >= 0 else ""
    rows = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r) for r in table.split("<tr>")[1:]]
    head = rows[0] if rows else []
    col = {name: k for k, name in enumerate(head)}
    check(all(c in col for c in ("start_frame", "end_frame", "vmaf.mean", "vmaf.perc5")),
          "windows table columns %s" % head)
    got = [(int(r[col["start_frame"]]), int(r[col["end_frame"]]), float(r[col["vmaf.mean"]]))
           for r in rows[1:]] if len(col) > 3 else []
    check(got == [(a, b, 80.5 + k) for k, (a, b, _) in enumerate(wins)],
          "windows table rows %s" % got)


def test_bdrate(tool, tmp):
    cases = [  # (ladder A [(kbps, level)], ladder B)
        ([(500, 60), (1000, 72), (2000, 82), (4000, 90)],
         [(400, 61), (800, 73), (1600, 83), (3200, 91)]),
        ([(300, 50), (900, 70), (2500, 85)],
         [(250, 45), (700, 69), (1500, 78), (3000, 88), (6000, 93)]),
        ([(1000, 70), (2000, 80)], [(800, 72), (1500, 79), (3000, 88)]),
        ([(200, 40), (400, 41), (800, 75), (1600, 77), (3200, 95)],
         [(300, 42), (600, 70), (1200, 76), (2400, 94)]),
    ]
    for n, (la, lb) in enumerate(cases):
        args, names = [], {"A": [], "B": []}
        for side, ladder in (("A", la), ("B", lb)):
            for k, (kbps, level) in enumerate(ladder):
                p = os.path.join(tmp, "bd%d_%s%d.json" % (n, side, k))
                synth(p, 40, "--level", str(level), "--seed", str(k + 3 * n),
                      "--outputs", "vmaf")
                args += [p, "--bitrate", "%s=%s" % (p, kbps)]
                names[side].append(p)
        out = os.path.join(tmp, "bd%d.html" % n)
        rc, _, err = run(tool, "-o", out, *args,
                         "--ladder", "A=" + ",".join(names["A"]),
                         "--ladder", "B=" + ",".join(names["B"]), "--bd-rate", "A,B")
        check(rc == 0, "bd-rate case %d: exit %d (%s)" % (n, rc, err.strip()))
        data = data_block(open(out).read())
        q = {l["path"]: l["outputs"]["vmaf"]["mean"] for l in data["logs"]}
        pa = [(kb, q[p]) for (kb, _), p in zip(la, names["A"])]
        pb = [(kb, q[p]) for (kb, _), p in zip(lb, names["B"])]
        want = bdrate_reference.bd_rate(pa, pb)
        got = data["bd_rate"][0]["percent"]
        check(abs(got - want) <= 1e-9 * max(1, abs(want)),
              "bd-rate case %d: %r != reference %r" % (n, got, want))
        print("bd-rate case %d: %.6f %% (reference %.6f %%)" % (n, got, want))
    # parallel straight lines in log-rate: B needs exactly 20 % less
    check(abs(bdrate_reference.bd_rate([(1000, 70), (2000, 80), (4000, 90)],
                                       [(800, 70), (1600, 80), (3200, 90)]) + 20)
          < 1e-9, "reference: parallel lines give -20 %")
    # no overlap: the page says why, the exit status says bad input
    a, b = os.path.join(tmp, "bd0_A0.json"), os.path.join(tmp, "bd0_B3.json")
    rc, _, err = run(tool, "-o", os.path.join(tmp, "bdx.html"), a, b, "--bitrate",
                     a + "=100", "--bitrate", b + "=200", "--ladder", "A=" + a,
                     "--ladder", "B=" + b, "--bd-rate", "A,B")
    check(rc == 1 and "at least 2" in err, "bd-rate of one point: exit 1 (%d)" % rc)


def test_errors(tool, logdir, tmp):
    clip = os.path.join(logdir, "clip.json")
    bad_json = os.path.join(tmp, "bad.json")
    open(bad_json, "w").write('{"hello": 1}')
    trunc = os.path.join(tmp, "trunc.json")
    open(trunc, "w").write(open(clip).read()[:5000])
    text = os.path.join(tmp, "notes.txt")
    open(text, "w").write("frame 1 looked fine\n")
    cut_xml, cut_csv = os.path.join(tmp, "cut.xml"), os.path.join(tmp, "cut.csv")
    open(cut_xml, "w").write(open(os.path.join(logdir, "clip.xml")).read()[:3000])
    open(cut_csv, "w").write(open(os.path.join(logdir, "clip.csv")).read()[:3000])
    empty = os.path.join(tmp, "empty.json")
    open(empty, "w").write('{"frames": []}')
    out = os.path.join(tmp, "e.html")
    for args, code, words in [
        ([os.path.join(tmp, "missing.json")], 1, "cannot open"),
        ([bad_json], 1, "not a libvmaf log"),
        ([trunc], 1, "not valid JSON"),
        ([text], 1, "not a libvmaf log"),
        ([cut_xml], 1, "does not end"),
        ([cut_csv], 1, "does not end"),
        ([empty], 1, "no frames"),
        (["--frobnicate", clip], 2, "unknown option --frobnicate"),
        ([], 2, "no log given"),
        (["--worst", "many", clip], 2, "--worst"),
        (["--bd-rate", "A,B", clip], 2, "--bd-rate"),
        (["--primary", "nothing", clip], 2, "no log has this output"),
        (["--bitrate", "x.json=5", clip], 2, "--bitrate"),
        ([clip, clip], 2, "--label"),
    ]:
        rc, _, err = run(tool, "-o", out, *args)
        check(rc == code and words in err, "%s: exit %d (want %d), %r" %
              (args, rc, code, err.strip()))
    rc, _, err = run(tool, clip)
    check(rc == 2 and "-o" in err, "no -o: exit %d" % rc)
    rc, text_out, _ = run(tool, "--help")
    check(rc == 0 and "Exit status" in text_out, "--help")
    check(not os.path.exists(out), "no page after bad input")


def video_tests(tool, tmp):
    """Thumbnails of the right frames (B-frames reorder the stream) and the
    container's bitrate; or, without FFmpeg, a clear refusal."""
    _, version, _ = run(tool, "--version")
    log = os.path.join(tmp, "v.json")
    vals = [90.0] * 20
    for fr, v in ((13, 40.0), (4, 50.0), (17, 55.0), (19, 45.0)):
        vals[fr] = v
    json.dump({"frames": [{"frameNum": i, "metrics": {"vmaf": v}}
                          for i, v in enumerate(vals)]}, open(log, "w"))
    if "FFmpeg" not in version:
        rc, _, err = run(tool, "-o", os.path.join(tmp, "v.html"), "--ref", "x.mkv", log)
        check(rc == 2 and "FFmpeg" in err, "--ref without FFmpeg: refused (%d)" % rc)
        print("video: this build has no FFmpeg; --ref refused")
        return
    ref, dis = os.path.join(tmp, "ref.mkv"), os.path.join(tmp, "dis.mp4")
    ff = ["ffmpeg", "-v", "error", "-y"]
    # frame N is flat grey 16 + 8 N: a thumbnail tells which frame it shows
    subprocess.run(ff + ["-f", "lavfi", "-i", "color=c=gray:s=64x48:r=25:d=0.8,"
                         "format=yuv420p,geq=lum='16+8*N':cb=128:cr=128",
                         "-c:v", "ffv1", ref], check=True, timeout=30)
    subprocess.run(ff + ["-i", ref, "-c:v", "mpeg4", "-bf", "2", "-g", "6",
                         "-q:v", "4", dis], check=True, timeout=30)
    out = os.path.join(tmp, "video.html")
    rc, _, err = run(tool, "-o", out, "--worst", "4", "--ref", ref, "--dis", dis, log)
    check(rc == 0, "thumbnails: exit %d (%s)" % (rc, err.strip()))
    html = open(out).read()
    imgs = re.findall(r'data-kind="(ref|dis)" data-frame="(\d+)"[^>]*'
                      r'src="data:image/jpeg;base64,([^"]+)"', html)
    check(len(imgs) == 8, "8 thumbnails, got %d" % len(imgs))
    for kind, fr, b64 in imgs:
        jpg = os.path.join(tmp, "t.jpg")
        open(jpg, "wb").write(base64.b64decode(b64))
        raw = subprocess.run(["ffmpeg", "-v", "error", "-i", jpg, "-f", "rawvideo",
                              "-pix_fmt", "gray", "-"], capture_output=True,
                             timeout=30).stdout
        level = sum(raw) / max(1, len(raw))
        want = 8 * int(fr) * 255 / 219  # 16 + 8 N, limited to full range
        check(abs(level - want) < 4, "%s thumbnail of frame %s shows level %.1f, "
              "frame %s's is %.1f" % (kind, fr, level, fr, want))
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0",
                            "-show_entries", "stream=bit_rate", "-of", "csv=p=0",
                            dis], capture_output=True, text=True).stdout.strip()
    data = data_block(html)
    check(abs(data["logs"][0]["bitrate_kbps"] - int(probe) / 1000) < 1e-6,
          "bitrate from the container: %r vs ffprobe %s" %
          (data["logs"][0]["bitrate_kbps"], probe))
    check(data["fps"] == 25, "frame rate from the container")
    rc, _, err = run(tool, "-o", out, "--dis", os.path.join(tmp, "nope.mp4"), log)
    check(rc == 1 and "nope.mp4" in err, "unreadable video: exit %d" % rc)
    print("video: %d thumbnails show their frames" % len(imgs))


def png_pixels(data):
    """Width, height and palette indices of an 8-bit palette PNG, checking
    every chunk's CRC."""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature")
    at, idat, w, h = 8, b"", None, None
    while at < len(data):
        n = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        crc = int.from_bytes(data[at + 8 + n:at + 12 + n], "big")
        check(zlib.crc32(kind + body) == crc, "PNG chunk CRC")
        if kind == b"IHDR":
            w, h = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw = zlib.decompress(idat)
    return w, h, [raw[y * (w + 1) + 1:(y + 1) * (w + 1)] for y in range(h)]


def test_heatmaps(tool, tmp):
    d = os.path.join(tmp, "maps")
    os.makedirs(d)
    w, h, frames = 64, 48, 8
    with open(os.path.join(d, "cambi_heatmap_scale_0_%dx%d_16b.gray" % (w, h)), "wb") as f:
        for k in range(frames):  # frame k: a square of value 1000 k
            px = np.zeros((h, w), dtype=np.uint16)
            px[8:24, 16:40] = 1000 * k
            f.write(px.astype("=u2").tobytes())
    log = os.path.join(tmp, "cambi.json")
    json.dump({"frames": [{"frameNum": i, "metrics": {"cambi": float(i)}}
                          for i in range(frames)]}, open(log, "w"))
    out = os.path.join(tmp, "cambi.html")
    rc, _, err = run(tool, "-o", out, "--worst", "3", "--thumb-width", "32",
                     "--cambi-heatmaps", d, log)
    check(rc == 0, "heatmaps: exit %d (%s)" % (rc, err.strip()))
    html = open(out).read()
    data = data_block(html)
    check(data["worst_is"] == "highest" and
          [x["frame"] for x in data["logs"][0]["worst"]] == [7, 6, 5],
          "cambi: the highest values are the worst")
    maps = re.findall(r'data-kind="cambi" data-frame="(\d+)"[^>]*'
                      r'src="data:image/png;base64,([^"]+)"', html)
    check(len(maps) == 3, "3 heatmaps, got %d" % len(maps))
    for fr, b64 in maps:
        pw, ph, rows = png_pixels(base64.b64decode(b64))
        top = max(max(r) for r in rows)
        # pooled 2x2 blocks: 32x24; frame 7 holds the largest value shown
        check((pw, ph) == (32, 24), "heatmap size %dx%d" % (pw, ph))
        check(top == round(int(fr) * 255 / 7), "frame %s heatmap top %d" % (fr, top))
        check(rows[0][0] == 0 and rows[6][10] == top, "heatmap square in place")


def test_browser(tool, logdir, tmp, keep):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        checks.skip("no chromium (scripts/install-deps.sh installs it)")
    a, b = os.path.join(tmp, "enc_a.json"), os.path.join(tmp, "enc_b.json")
    synth(a, 3000, "--windows", "--seed", "11")
    synth(b, 3000, "--seed", "12", "--level", "80")
    clip = os.path.join(logdir, "clip.json")
    out = os.path.join(tmp, "browser.html")
    ladder = []
    for k, (lvl, kbps) in enumerate(((70, 800), (80, 1600), (88, 3200))):
        p = os.path.join(tmp, "rung%d.json" % k)
        synth(p, 100, "--level", str(lvl), "--seed", str(20 + k), "--outputs", "vmaf")
        ladder += [p, "--bitrate", "%s=%d" % (p, kbps)]
    rc, _, err = run(tool, "-o", out, "--fps", "25", "--label", a + "=encoder A",
                     "--label", b + "=encoder B", a, b, clip, *ladder)
    check(rc == 0, "browser report: exit %d (%s)" % (rc, err.strip()))
    html = open(out).read()
    check(not re.search(r'(src|href)\s*=\s*["\'](?!data:|#)', html) and
          "http:" not in html and "https:" not in html and "<link" not in html
          and not re.search(r"<script[^>]*\bsrc", html),
          "nothing outside the page is referenced")
    url = "file://" + out
    flags = ["--headless=new", "--no-sandbox", "--disable-gpu",
             "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
             "--disable-background-networking", "--no-first-run",
             "--hide-scrollbars", "--window-size=1280,2000",
             "--user-data-dir=" + os.path.join(tmp, "chromium-profile")]
    shot = os.path.join(tmp, "report.png")
    t0 = time.time()
    dom = subprocess.run([chromium, *flags, "--dump-dom", url], capture_output=True,
                         text=True, timeout=45).stdout
    subprocess.run([chromium, *flags, "--screenshot=" + shot, url],
                   capture_output=True, timeout=45)
    print("browser: %.1f s" % (time.time() - t0))
    png = open(shot, "rb").read() if os.path.exists(shot) else b""
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and
          int.from_bytes(png[16:20], "big") == 1280, "screenshot taken")
    data = data_block(dom)
    # the primary chart: one polyline per log, all frames or 2 per column
    curves = re.findall(r'<polyline class="curve"[^>]*data-log="([^"]*)"'
                        r'[^>]*data-output="vmaf" data-frames="(\d+)" '
                        r'data-decimated="(\d)" points="([^"]*)" data-points="(\d+)"', dom)
    check(len(curves) == 6, "6 vmaf curves in the DOM, got %d" % len(curves))
    for label, nframes, dec, points, npts in curves:
        got = len(points.split())
        check(got == int(npts), "%s: %d points, says %s" % (label, got, npts))
        if dec == "0":
            check(got == int(nframes), "%s: every frame drawn" % label)
        else:
            check(got <= 2 * 1064 and got >= 1064, "%s: decimated to %d" % (label, got))
    check([c[0] for c in curves[:3]] == ["encoder A", "encoder B", "clip.json"],
          "legend order")
    check(dom.count('<li><span class="sw"') >= 6, "legend entries")
    cells = Cells()
    cells.feed(dom)
    nums, series = read_log(clip)
    ref = numpy_stats(series["vmaf"])
    for k in ("mean", "min", "max", "p1", "p5", "p10", "p20", "p50"):
        cell = cells.cells.get(("clip.json", "vmaf", k))
        check(cell is not None and cell[1] == shown(ref[k]),
              "DOM table: clip.json vmaf %s %r vs numpy %r" % (k, cell, ref[k]))
    check(dom.count('class="rqpt"') == 3, "rate-quality points")
    check(data["logs"][0]["windows"] == 2, "windows in the data block")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(shot, os.path.join(keep, "report.png"))
        shutil.copy(out, os.path.join(keep, "report.html"))


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i:i + 2]
    browser = "--browser" in args
    args = [a for a in args if a != "--browser"]
    if len(args) != 2:
        print(__doc__)
        return 2
    tool, logdir = os.path.abspath(args[0]), os.path.abspath(args[1])
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="vqhip-report-") as tmp:
        if browser:
            test_browser(tool, logdir, tmp, keep)
        else:
            test_numbers(tool, logdir, tmp)
            test_vqhip_windows(tool, tmp)
            test_bdrate(tool, tmp)
            test_errors(tool, logdir, tmp)
            video_tests(tool, tmp)
            test_heatmaps(tool, tmp)
            if keep:
                os.makedirs(keep, exist_ok=True)
                for n in ("numbers.html", "video.html", "cambi.html", "bd0.html"):
                    if os.path.exists(os.path.join(tmp, n)):
                        shutil.copy(os.path.join(tmp, n), keep)
    print("%.1f s" % (time.time() - t0))
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
