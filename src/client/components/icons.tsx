import { Icon, type IconProps } from "@chakra-ui/react";

// Stroke icons drawn inline (paths after Feather, MIT), so nothing depends on an emoji font or an icon package.
const stroke = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

function make(paths: string[], name: string) {
  const Component = (props: IconProps) => (
    <Icon viewBox="0 0 24 24" boxSize="4" aria-hidden {...props}>
      <svg {...stroke} aria-hidden="true">
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    </Icon>
  );
  Component.displayName = name;
  return Component;
}

export const ThumbUpIcon = make(
  [
    "M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3z",
    "M7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3",
  ],
  "ThumbUpIcon",
);
export const ThumbDownIcon = make(
  [
    "M10 15v4a3 3 0 0 0 3 3l4-9V2H5.72a2 2 0 0 0-2 1.7l-1.38 9a2 2 0 0 0 2 2.3z",
    "M17 2h2.67A2.31 2.31 0 0 1 22 4v7a2.31 2.31 0 0 1-2.33 2H17",
  ],
  "ThumbDownIcon",
);
export const EyeIcon = make(
  ["M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z", "M12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6z"],
  "EyeIcon",
);
export const EditIcon = make(["M12 20h9", "M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z"], "EditIcon");
export const TrashIcon = make(
  [
    "M3 6h18",
    "M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6",
    "M10 11v6",
    "M14 11v6",
    "M9 6V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2",
  ],
  "TrashIcon",
);
export const LinkIcon = make(
  [
    "M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71",
    "M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71",
  ],
  "LinkIcon",
);
export const ImageIcon = make(
  [
    "M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z",
    "M8.5 7a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z",
    "M21 15l-5-5L5 21",
  ],
  "ImageIcon",
);
export const StarIcon = make(
  ["M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01L12 2z"],
  "StarIcon",
);
export const MenuIcon = make(["M3 12h18", "M3 6h18", "M3 18h18"], "MenuIcon");
export const MoonIcon = make(["M21 12.79A9 9 0 1 1 11.21 3 7 7 0 0 0 21 12.79z"], "MoonIcon");
export const SunIcon = make(
  [
    "M12 7a5 5 0 1 0 0 10 5 5 0 1 0 0-10z",
    "M12 1v2",
    "M12 21v2",
    "M4.22 4.22l1.42 1.42",
    "M18.36 18.36l1.42 1.42",
    "M1 12h2",
    "M21 12h2",
    "M4.22 19.78l1.42-1.42",
    "M18.36 5.64l1.42-1.42",
  ],
  "SunIcon",
);

export const FlagIcon = make(["M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1z", "M4 22v-7"], "FlagIcon");
export const SearchIcon = make(["M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z", "M21 21l-4.35-4.35"], "SearchIcon");
export const BellIcon = make(
  ["M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9", "M13.73 21a2 2 0 0 1-3.46 0"],
  "BellIcon",
);
