#include "ptxsim/runtime/compare/compare_html.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

// Generated at configure time from Debian's libjs-chart.js (runtime/CMakeLists.txt).
#include "chartjs_source.h"

namespace ptxsim::runtime::compare {

namespace {

std::string escapeHtml(std::string_view text) {
  std::string result;
  for (char c : text) {
    switch (c) {
      case '<': result += "&lt;"; break;
      case '>': result += "&gt;"; break;
      case '&': result += "&amp;"; break;
      case '"': result += "&quot;"; break;
      default: result += c;
    }
  }
  return result;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// The data the page's script plots. "</" is written "<\/" so that no kernel
// name can end the <script> element.
std::string chartData(const std::vector<MetricComparison>& comparisons) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const MetricComparison& c : comparisons) {
    nlohmann::json points = nlohmann::json::array();
    for (const MetricPoint& p : c.points) points.push_back({{"launch", p.launch}, {"hw", p.hardware}, {"sim", p.simulated}});
    nlohmann::json metric = {{"metric", c.metric}, {"points", points}, {"percent", isPercentMetric(c.metric)}};
    metric["mape"] = c.mapePct ? nlohmann::json(*c.mapePct) : nlohmann::json(nullptr);
    metric["corr"] = c.correlation ? nlohmann::json(*c.correlation) : nlohmann::json(nullptr);
    metrics.push_back(std::move(metric));
  }
  std::string text = metrics.dump(), safe;
  for (size_t i = 0; i < text.size(); ++i) {
    safe += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') safe += '\\';
  }
  return safe;
}

constexpr std::string_view kStyle = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #1f2933;
       background: #f5f7fa; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
p.note { color: #52606d; margin: 0 0 16px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.chart { background: #fff; border: 1px solid #d9e2ec; border-radius: 8px; padding: 10px; }
table { border-collapse: collapse; background: #fff; font-size: 13px; }
th, td { border: 1px solid #d9e2ec; padding: 4px 8px; text-align: right; }
th { background: #e4e7eb; }
td.name { text-align: left; font-family: ui-monospace, monospace; }
)css";

// Builds every chart, then marks the page rendered (title and
// body[data-rendered]) or failed (body[data-render-error]).
constexpr std::string_view kScript = R"js(
function ptxsimFormat(v) {
  if (v === null) return 'n/a';
  return Math.abs(v) >= 1e5 ? Number(v.toPrecision(3)).toExponential() : +v.toPrecision(5) + '';
}
function ptxsimChart(container, m) {
  const card = document.createElement('div');
  card.className = 'chart';
  const canvas = document.createElement('canvas');
  canvas.width = 430; canvas.height = 360;
  card.appendChild(canvas);
  container.appendChild(card);
  const values = m.points.flatMap(p => [p.hw, p.sim]);
  const positive = values.filter(v => v > 0);
  const low = Math.min(...values), high = Math.max(...values);
  const logScale = positive.length === values.length && high / low > 100;
  // Linear axes start at 0 for positive data; Chart.js picks round ticks.
  const from = logScale ? low / 1.5 : Math.min(0, low), to = logScale ? high * 1.5 : high * 1.05;
  const axis = name => ({ type: logScale ? 'logarithmic' : 'linear', min: logScale ? undefined : from,
                          title: { display: true, text: name + (logScale ? ' (log)' : '') },
                          ticks: { callback: v => ptxsimFormat(v), maxTicksLimit: 8 } });
  const title = m.metric;
  const subtitle = 'MAPE ' + (m.mape === null ? 'n/a' : m.mape.toFixed(2) + '%') + '   correlation ' +
                   (m.corr === null ? 'n/a' : m.corr.toFixed(4)) + '   ' + m.points.length + ' launch(es)';
  const chart = new Chart(canvas, {
    type: 'scatter',
    data: { datasets: [
      { label: 'launches', data: m.points.map(p => ({ x: p.hw, y: p.sim, launch: p.launch })),
        backgroundColor: 'rgba(37, 99, 235, 0.75)', borderColor: 'rgb(30, 64, 175)', pointRadius: 5,
        pointHoverRadius: 8 },
      { type: 'line', label: 'y = x', data: [{ x: from, y: from }, { x: to, y: to }], borderColor: '#9aa5b1',
        borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0, pointHoverRadius: 0, fill: false } ] },
    options: {
      responsive: false, animation: false,
      plugins: {
        title: { display: true, text: [title, subtitle], font: { size: 13 } },
        legend: { display: true, position: 'bottom' },
        tooltip: { filter: item => item.datasetIndex === 0,
                   callbacks: { label: item => [item.raw.launch, 'hardware ' + ptxsimFormat(item.raw.x) +
                                                '   simulated ' + ptxsimFormat(item.raw.y)] } } },
      scales: { x: axis('hardware'), y: axis('simulated') } } });
  if (chart.getDatasetMeta(0).data.length !== m.points.length) throw new Error(m.metric + ': points not drawn');
}
window.addEventListener('load', () => {
  try {
    const container = document.getElementById('charts');
    for (const m of ptxsimMetrics) ptxsimChart(container, m);
    document.title = 'ptxsim compare: rendered ' + ptxsimMetrics.length + ' charts';
    document.body.dataset.rendered = String(ptxsimMetrics.length);
  } catch (e) {
    document.title = 'ptxsim compare: render failed: ' + e.message;
    document.body.dataset.renderError = e.message;
  }
});
)js";

void writeTables(std::ostream& out, const std::vector<MetricComparison>& comparisons) {
  out << "<h2>Summary</h2>\n<table>\n<tr><th>metric</th><th>launches</th><th>MAPE</th><th>max |error|</th>"
         "<th>max difference (points)</th><th>correlation</th></tr>\n";
  for (const MetricComparison& c : comparisons) {
    out << "<tr><td class=\"name\">" << escapeHtml(c.metric) << "</td><td>" << c.points.size() << "</td><td>"
        << (c.mapePct ? format("%.2f%%", *c.mapePct) : "n/a") << "</td><td>"
        << (c.maxAbsErrorPct ? format("%.2f%%", *c.maxAbsErrorPct) : "n/a") << "</td><td>"
        << (isPercentMetric(c.metric) ? format("%.2f", c.maxAbsDifference) : "") << "</td><td>"
        << (c.correlation ? format("%.4f", *c.correlation) : "n/a") << "</td></tr>\n";
  }
  out << "</table>\n<h2>Launches</h2>\n<table>\n<tr><th>launch</th><th>metric</th><th>hardware</th>"
         "<th>simulated</th><th>error</th></tr>\n";
  for (const MetricComparison& c : comparisons) {
    for (const MetricPoint& p : c.points) {
      std::optional<double> error = errorPct(p.hardware, p.simulated);
      out << "<tr><td class=\"name\">" << escapeHtml(p.launch) << "</td><td class=\"name\">" << escapeHtml(c.metric)
          << "</td><td>" << format("%.6g", p.hardware) << "</td><td>" << format("%.6g", p.simulated) << "</td><td>"
          << (error ? format("%+.2f%%", *error) : "n/a");
      if (isPercentMetric(c.metric)) out << format(" (%+.2f points)", p.simulated - p.hardware);
      out << "</td></tr>\n";
    }
  }
  out << "</table>\n";
}

}  // namespace

void writeHtml(std::ostream& out, const std::vector<MetricComparison>& comparisons) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>ptxsim compare</title>\n<style>"
      << kStyle << "</style>\n<script>\n";
  for (std::string_view part : kChartJsSourceParts) out << part;
  out << "\n</script>\n</head>\n<body>\n<h1>ptxsim compare: simulated against hardware</h1>\n"
         "<p class=\"note\">One point per kernel launch (hover for its name and values); the dashed line is "
         "y = x. Axes are logarithmic where the values span more than 100&times;.</p>\n"
         "<div id=\"charts\" class=\"charts\"></div>\n";
  writeTables(out, comparisons);
  out << "<script>\nconst ptxsimMetrics = " << chartData(comparisons) << ";\n" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace ptxsim::runtime::compare
