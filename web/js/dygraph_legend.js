// dygraphs' legend under the page's Content-Security-Policy (style-src 'self', no inline
// styles). Its stock legend is HTML text with style="color: ..." attributes, set as innerHTML,
// and it measures an em with setAttribute('style', ...): the browser refuses every one of those
// (a console error each, and legends without colours). Here the legend is built as DOM nodes and
// each series' colour is set through the CSSOM (element.style), which style-src does not govern:
// a coloured swatch (.legend-swatch) before each name.

// The legend of `data` (dygraphs' legendFormatter argument: each series' label, colour, and while
// the pointer is over the plot its value) as nodes.
function legend_node(data) {
  const frag = document.createDocumentFragment();
  const hovered = typeof data.x !== 'undefined';
  if (hovered) frag.append(document.createTextNode(`${data.xHTML}:`));
  for (const s of data.series) {
    if (!s.isVisible || (hovered && !s.y && !s.yHTML)) continue;
    const item = document.createElement('span');
    item.className = s.isHighlighted ? 'legend-series highlight' : 'legend-series';
    item.dataset.series = s.label;
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    swatch.style.backgroundColor = s.color;
    const name = document.createElement('span');
    name.className = 'legend-name';
    name.style.color = s.color;
    name.textContent = s.label;
    item.append(swatch, name);
    if (hovered) item.append(document.createTextNode(`: ${s.yHTML}`));
    frag.append(item);
  }
  return frag;
}

let installed = false;

// Replaces dygraphs' legend plugin with one that never measures through a style attribute and
// writes a DocumentFragment (never innerHTML text), for every graph made after this call.
export function install_csp_legend(Dygraph) {
  if (installed || !Dygraph || !Dygraph.Plugins || !Dygraph.Plugins.Legend) return;
  const stock = Dygraph.Plugins.Legend;
  class csp_legend extends stock {
    // The stock deselect measures an em with a style attribute first (for dashed-line samples,
    // which the page does not draw); the rest is the same.
    deselect(e) {
      if (e.dygraph.getOption('legend') !== 'always') this.legend_div_.style.display = 'none';
      const node = stock.generateLegendHTML(e.dygraph, undefined, undefined, this.one_em_width_, null);
      this.legend_div_.replaceChildren(node instanceof Node ? node : document.createTextNode(''));
    }
  }
  const at = Dygraph.PLUGINS.indexOf(stock);
  if (at >= 0) Dygraph.PLUGINS[at] = csp_legend;
  installed = true;
}

// The options every graph of the page passes: the legend as nodes.
export const legend_options = { legendFormatter: legend_node };
