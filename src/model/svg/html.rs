//! A self-contained HTML page that plays an animated SVG: the SVG inline, play / pause, a time
//! scrubber and the time, in a few lines of script (no network, no libraries). The browser's
//! own SMIL clock is the player: the script only pauses it and sets its time.

/// The page around `svg` (an animated graft SVG) for a clip of `period` seconds (the SVG's
/// animation period: the clip, or twice it for PingPong); a clip played `once` stops its clock
/// at the end and shows Play (which plays it again from the start).
pub fn player_page(svg: &str, title: &str, period: f64, once: bool) -> String {
    let title = super::xml::xml(title);
    let svg = svg.trim_start_matches(|c| c != '<');
    format!(
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font: 14px system-ui, sans-serif; margin: 0; background: #1c1c1c; color: #ddd; }}
#stage svg {{ display: block; width: 100vw; height: calc(100vh - 48px); background: #fff; }}
#bar {{ display: flex; gap: 8px; align-items: center; height: 48px; padding: 0 12px; }}
#scrub {{ flex: 1; }}
#time {{ font-variant-numeric: tabular-nums; min-width: 8ch; text-align: right; }}
</style>
</head>
<body>
<div id="stage">
{svg}
</div>
<div id="bar">
<button id="play" type="button">Pause</button>
<input id="scrub" type="range" min="0" max="{period}" step="0.01" value="0" aria-label="Time">
<span id="time">0.00 s</span>
</div>
<script>
const period = {period};
const once = {once};
{PLAYER_SCRIPT}</script>
</body>
</html>
"##
    )
}

/// The page's script: the SVG's SMIL animation is the clock; this pauses it, scrubs it, and
/// stops a clip played once at its end (`period` and `once` are set before it).
const PLAYER_SCRIPT: &str = r##"// graft's player: the SVG's SMIL animation is the clock; this only pauses it and scrubs it.
const svg = document.querySelector("#stage svg");
const play = document.getElementById("play");
const scrub = document.getElementById("scrub");
const time = document.getElementById("time");
function show() {
  const now = svg.getCurrentTime();
  const ended = once && now >= period;
  const t = once ? Math.min(now, period) : now % period;
  if (ended) { svg.pauseAnimations(); svg.setCurrentTime(period); play.textContent = "Play"; }
  scrub.value = t;
  time.textContent = t.toFixed(2) + " s";
  if (!svg.animationsPaused()) requestAnimationFrame(show);
}
play.addEventListener("click", () => {
  if (svg.animationsPaused()) {
    if (once && svg.getCurrentTime() >= period) svg.setCurrentTime(0);
    svg.unpauseAnimations(); play.textContent = "Pause"; requestAnimationFrame(show);
  }
  else { svg.pauseAnimations(); play.textContent = "Play"; }
});
scrub.addEventListener("input", () => {
  svg.pauseAnimations();
  play.textContent = "Play";
  svg.setCurrentTime(Number(scrub.value));
  time.textContent = Number(scrub.value).toFixed(2) + " s";
});
requestAnimationFrame(show);
"##;
