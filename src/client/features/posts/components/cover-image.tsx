import { Image, type ImageProps } from "@chakra-ui/react";
import { imageAt, imageSrcSet } from "#shared/images.ts";

/**
 * A post's cover at the width the layout needs (`sizes`), in a 16:9 box reserved before it loads. `priority`: the
 * page's largest paint, loaded first; any other cover loads when it is scrolled to.
 */
export function CoverImage({
  url,
  sizes,
  priority = false,
  ...props
}: { url: string; sizes: string; priority?: boolean } & ImageProps) {
  return (
    <Image
      src={imageAt(url, "cover", 800)}
      srcSet={imageSrcSet(url, "cover")}
      sizes={sizes}
      htmlWidth={1600}
      htmlHeight={900}
      alt=""
      aspectRatio={16 / 9}
      objectFit="cover"
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : "auto"}
      {...props}
    />
  );
}
