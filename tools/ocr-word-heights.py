#!/usr/bin/env python3
"""Reads a screenshot back with tesseract and prints the heights of the words it found.

    tools/ocr-word-heights.py IMAGE [--min-confidence N] [--region X,Y,W,H] [--list]

The height of a word is the height of its hOCR bounding box in pixels (ascenders and
descenders included). Words with a confidence below N (default 60) or without a letter or
digit are left out: tesseract reads parts of the 3D view and icons as short nonsense. Prints
the number of words and the 10th percentile, median and 90th percentile of their heights, so
that "the median word is at least 16 px high" can be checked on any screenshot. Exit code 0,
or 2 on bad usage, 3 when tesseract fails or finds no word.
"""

import argparse
import html
import re
import subprocess
import sys

WORD = re.compile(
    r"<span class=['\"]ocrx_word['\"][^>]*title=['\"]bbox (\d+) (\d+) (\d+) (\d+); x_wconf (\d+)['\"][^>]*>(.*?)</span>",
    re.S,
)
TAG = re.compile(r"<[^>]+>")


def percentile(sorted_values, fraction):
    """The value at `fraction` of the way through, by the nearest rank."""
    index = max(0, min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def words(hocr, min_confidence, region):
    for match in WORD.finditer(hocr):
        x0, y0, x1, y1, confidence = (int(v) for v in match.groups()[:5])
        text = html.unescape(TAG.sub("", match.group(6))).strip()
        if confidence < min_confidence or not any(c.isalnum() for c in text):
            continue
        if region and not (region[0] <= x0 and x1 <= region[0] + region[2]
                           and region[1] <= y0 and y1 <= region[1] + region[3]):
            continue
        yield text, (x0, y0, x1, y1), confidence


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image")
    parser.add_argument("--min-confidence", type=int, default=60)
    parser.add_argument("--region", help="only words inside X,Y,W,H (pixels)")
    parser.add_argument("--list", action="store_true", help="also list every word counted")
    args = parser.parse_args()
    region = None
    if args.region:
        try:
            region = [int(v) for v in args.region.split(",")]
            if len(region) != 4:
                raise ValueError
        except ValueError:
            parser.exit(2, f"ocr-word-heights: bad --region \"{args.region}\": expected X,Y,W,H\n")
    try:
        hocr = subprocess.run(["tesseract", args.image, "stdout", "hocr"], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"ocr-word-heights: tesseract could not read {args.image}: {error}", file=sys.stderr)
        return 3
    found = list(words(hocr, args.min_confidence, region))
    if not found:
        print(f"ocr-word-heights: no word in {args.image} with confidence >= "
              f"{args.min_confidence}", file=sys.stderr)
        return 3
    heights = sorted(box[3] - box[1] for _, box, _ in found)
    if args.list:
        for text, box, confidence in found:
            print(f"{box[3] - box[1]:4d} px  conf {confidence:3d}  {text}")
    print(f"{args.image}: {len(heights)} words, height p10 {percentile(heights, 0.1)} px, "
          f"median {percentile(heights, 0.5)} px, p90 {percentile(heights, 0.9)} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
