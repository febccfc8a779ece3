import { render, screen, waitFor } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AppProvider } from "../../src/client/app/provider.tsx";
import { RichText } from "../../src/client/components/rich-text.tsx";
import { HydrationBoundary } from "../../src/client/lib/use-hydrated.tsx";

const HOSTILE =
  '<p>Kept</p><img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">link</a>';

describe("rich text", () => {
  it("sanitises HTML the browser puts into the page itself", async () => {
    const { container } = render(
      <AppProvider>
        <RichText html={HOSTILE} />
      </AppProvider>,
    );
    expect(await screen.findByText("Kept")).toBeInTheDocument();
    expect(container.querySelector("img")).not.toHaveAttribute("onerror");
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("a")).not.toHaveAttribute("href", "javascript:alert(3)");
    expect(container.querySelector(".rich-text")).not.toHaveAttribute("aria-busy");
  });

  it("keeps the markup the page was hydrated from, and sanitises any other HTML it is then given", async () => {
    // The served markup is the server's, sanitised when stored; hydration keeps the DOM as it is.
    const served = '<p>Served <img src="/uploads/a.png" alt="a"></p>';
    const view = (html: string) => (
      <AppProvider>
        <RichText html={html} />
      </AppProvider>
    );
    const container = document.createElement("div");
    container.innerHTML = renderToString(view(served));
    document.body.append(container);
    const { rerender } = render(view(served), { container, hydrate: true });
    expect(container.querySelector(".rich-text")?.innerHTML).toBe(served);
    expect(container.querySelector(".rich-text")).not.toHaveAttribute("aria-busy");
    rerender(view(HOSTILE));
    await waitFor(() => expect(screen.getByText("Kept")).toBeInTheDocument());
    expect(container.querySelector("img")).not.toHaveAttribute("onerror");
    expect(container.querySelector("script")).toBeNull();
  });

  it("sanitises HTML mounted in the browser while the rest of the page is still hydrating", async () => {
    const { container } = render(
      <AppProvider>
        <HydrationBoundary hydrating>
          <RichText html={HOSTILE} />
        </HydrationBoundary>
      </AppProvider>,
    );
    expect(await screen.findByText("Kept")).toBeInTheDocument();
    expect(container.querySelector("img")).not.toHaveAttribute("onerror");
    expect(container.querySelector("script")).toBeNull();
  });
});
