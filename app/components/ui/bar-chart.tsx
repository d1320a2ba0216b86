import { useTranslation } from "react-i18next";

export type SeriesPoint = { date: string; value: number };

/** "2026-11-05" → "05/11" without passing through a Date, so no time zone can shift the day. */
function dayMonth(date: string) {
  const [, month, day] = date.split("-");
  return `${day}/${month}`;
}

/** A rounded-up top for the axis: 0–4 → 4, 7 → 8, 23 → 25, 130 → 150. */
function niceMax(max: number) {
  if (max <= 4) return 4;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}

/**
 * Daily counts as a bar chart drawn on the server: the bars are inline SVG that stretches to the
 * card's width, the axis labels are HTML (so they keep their size on a phone), and a hidden table
 * gives screen readers the same numbers. Nothing here needs JavaScript.
 */
export function BarChart({ series, title }: { series: SeriesPoint[]; title: string }) {
  const { t } = useTranslation("market");
  const total = series.reduce((sum, p) => sum + p.value, 0);
  const top = niceMax(Math.max(0, ...series.map((p) => p.value)));
  const width = Math.max(series.length, 1) * 10;
  const height = 100;
  const barWidth = 6;
  return (
    <figure className="chart">
      <figcaption className="chart-head">
        <span className="chart-title">{title}</span>
        <span className="chart-total">{t("dashboard.chart_total", { count: total })}</span>
      </figcaption>
      <div className="chart-body">
        <div className="chart-y" aria-hidden="true">
          <span>{top}</span>
          <span>{top / 2}</span>
          <span>0</span>
        </div>
        <div className="chart-plot">
          <svg
            className="chart-svg"
            viewBox={`0 0 ${width} ${height}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={`${title}: ${t("dashboard.chart_total", { count: total })}`}
          >
            {[0, 0.5, 1].map((f) => (
              <line
                key={f}
                x1={0}
                x2={width}
                y1={height * f}
                y2={height * f}
                className="chart-grid"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {series.map((point, i) => {
              const h = top ? (point.value / top) * height : 0;
              return (
                <rect
                  key={point.date}
                  className={point.value ? "chart-bar" : "chart-bar empty"}
                  x={i * 10 + (10 - barWidth) / 2}
                  y={height - Math.max(h, point.value ? 1.5 : 0)}
                  width={barWidth}
                  height={Math.max(h, point.value ? 1.5 : 0)}
                  rx={1}
                >
                  <title>{t("dashboard.chart_bar", { date: dayMonth(point.date), count: point.value })}</title>
                </rect>
              );
            })}
          </svg>
          <div
            className="chart-x"
            aria-hidden="true"
            style={{ gridTemplateColumns: `repeat(${series.length || 1}, 1fr)` }}
          >
            {series.map((point, i) => (
              <span key={point.date}>{i % 5 === 0 || i === series.length - 1 ? dayMonth(point.date) : ""}</span>
            ))}
          </div>
        </div>
      </div>
      {total === 0 ? <p className="chart-empty muted">{t("dashboard.chart_empty")}</p> : null}
      {/* A table's height ignores the 1px box, so the visually hidden wrapper is a div. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <tbody>
            {series.map((point) => (
              <tr key={point.date}>
                <th scope="row">{dayMonth(point.date)}</th>
                <td>{point.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
