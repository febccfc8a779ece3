import type { PageHead } from "#shared/reader-pages.ts";
import type { PostDetail } from "#shared/schemas/posts.ts";
import type { SiteSettings } from "#shared/schemas/settings.ts";
import { excerpt, plainText } from "#shared/text.ts";

/** The titles of the reader pages: the tab's title in the browser, and the head the server writes. */
export const pageTitles = {
  posts: (category?: string) => (category ? `${category} | Latest Blogs` : "Latest Blogs"),
  search: (q?: string) => (q ? `Search: ${q}` : "Search"),
  login: "Login",
  register: "Register",
  passwordReset: "Password Reset Form",
  createPost: "Create Post",
  categoryNotFound: "Category not found",
  postNotFound: "Post not found",
};

const allPosts = (site: SiteSettings) => ({ title: `${site.siteName}: all posts`, path: "/rss.xml" });
const categoryFeed = (site: SiteSettings, category: string) => ({
  title: `${site.siteName}: ${category}`,
  path: `/rss.xml?category=${encodeURIComponent(category)}`,
});

/** The heads of the server-rendered reader pages, from what each page loaded. */
export const pageHeads = {
  home: (site: SiteSettings): PageHead => ({
    siteName: site.siteName,
    title: "",
    description: site.siteDescription || `${site.siteName}: a multi-user blog.`,
    path: "/",
    feeds: [allPosts(site)],
  }),

  posts: (site: SiteSettings, category?: string): PageHead => ({
    siteName: site.siteName,
    title: pageTitles.posts(category),
    description: category
      ? `The latest posts about ${category} on ${site.siteName}.`
      : `The latest posts on ${site.siteName}.`,
    path: category ? `/posts?category=${encodeURIComponent(category)}` : "/posts",
    feeds: category ? [allPosts(site), categoryFeed(site, category)] : [allPosts(site)],
  }),

  /** An unknown category: not a page, so nothing the address says is shown as a title. */
  categoryNotFound: (site: SiteSettings): PageHead => ({
    siteName: site.siteName,
    title: pageTitles.categoryNotFound,
    description: "There is no such category.",
    path: "/posts",
    feeds: [],
    noindex: true,
  }),

  /** Search results are kept out of search engines: what a reader typed is not a page. */
  search: (site: SiteSettings, q?: string): PageHead => ({
    siteName: site.siteName,
    title: pageTitles.search(q),
    description: `Search the posts on ${site.siteName}.`,
    path: "/search",
    feeds: [allPosts(site)],
    noindex: true,
  }),

  post: (site: SiteSettings, post: PostDetail): PageHead => ({
    siteName: site.siteName,
    title: post.title,
    description: excerpt(plainText(post.description)),
    path: `/posts/${post.id}`,
    post,
    feeds: [
      allPosts(site),
      categoryFeed(site, post.category),
      {
        title: `${site.siteName}: ${post.user.firstName} ${post.user.lastName}`,
        path: `/rss.xml?author=${post.user.id}`,
      },
    ],
  }),

  /** The forms a visitor opens first: rendered on the server too, so they show before the app has loaded. */
  form: (site: SiteSettings, path: "/login" | "/register" | "/password-reset-token"): PageHead => ({
    siteName: site.siteName,
    title: {
      "/login": pageTitles.login,
      "/register": pageTitles.register,
      "/password-reset-token": pageTitles.passwordReset,
    }[path],
    description: {
      "/login": `Log in to ${site.siteName}, with your e-mail and password or your wallet.`,
      "/register": `Create your ${site.siteName} account and start writing.`,
      "/password-reset-token": `Reset your ${site.siteName} password.`,
    }[path],
    path,
    feeds: [],
    // Forms, not content: kept out of search engines like the screens the browser renders.
    noindex: true,
  }),

  createPost: (site: SiteSettings): PageHead => ({
    siteName: site.siteName,
    title: pageTitles.createPost,
    description: `Write a post on ${site.siteName}.`,
    path: "/create-post",
    feeds: [],
    noindex: true,
  }),

  postNotFound: (site: SiteSettings, id: string): PageHead => ({
    siteName: site.siteName,
    title: pageTitles.postNotFound,
    description: "This post does not exist or was deleted.",
    path: `/posts/${encodeURIComponent(id)}`,
    feeds: [],
    noindex: true,
  }),
};
