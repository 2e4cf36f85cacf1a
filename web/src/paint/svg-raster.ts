// Rasterises a standalone SVG (diagram-export-svg.ts) into a PNG at a multiple of its CSS size — 2× for
// slides — by the browser's own SVG renderer: the SVG is loaded as an image from a blob URL (it
// references nothing outside itself, so nothing is fetched and the canvas stays readable) and drawn
// once onto a canvas of width × scale by height × scale device pixels.

/** The PNG of `svgText` (whose size is width × height CSS px) at `scale` device pixels per CSS px. */
export async function svgToPng(svgText: string, width: number, height: number, scale: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser cannot draw on a canvas, so it cannot make a PNG.');
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The browser could not encode the PNG.'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
