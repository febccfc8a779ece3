import type { AnchorHTMLAttributes, Ref } from "react";
import { type To, useHref, useLinkClickHandler, useLocation, useResolvedPath } from "react-router-dom";

type RouterLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * A link to a screen of the app, made with React Router's hooks for custom links: its `<Link>` brings the prefetching
 * of framework mode's route modules, which this app never uses, into every screen's script. A press without a
 * modifier key moves in the page; the rest (a new tab, a download) is the browser's.
 */
export function RouterLink({ to, replace, state, target, onClick, ...rest }: RouterLinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}

/** A `RouterLink` that says it is the current page (`aria-current`) on the screen it leads to, as `<NavLink end>`. */
export function RouterNavLink(props: RouterLinkProps) {
  const { pathname } = useLocation();
  const target = useResolvedPath(props.to).pathname;
  const current = pathname.toLowerCase().replace(/(.)\/$/, "$1") === target.toLowerCase().replace(/(.)\/$/, "$1");
  return <RouterLink aria-current={current ? "page" : undefined} {...props} />;
}
