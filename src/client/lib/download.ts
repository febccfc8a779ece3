/** Saves a text as a file, as the browser downloads one. */
export function saveFile(name: string, text: string, type = "text/csv") {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
