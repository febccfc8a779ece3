import { lazy } from "react";
import type { RouteObject } from "react-router-dom";
import type { Access } from "../../shared/permissions.ts";
import { RequireAccess } from "../features/auth/components/require-access.tsx";
import { Layout } from "./layout.tsx";
import { HomeRoute } from "./routes/home.tsx";
import { NotFoundRoute } from "./routes/not-found.tsx";
// The reader pages are rendered on the server and hydrated at once, so they are not split off.
import { PostRoute } from "./routes/post.tsx";
import { PostsRoute } from "./routes/posts.tsx";
import { SearchRoute } from "./routes/search.tsx";

// Every other screen is its own chunk: a reader never downloads the editor or the forms.
const LoginRoute = lazy(() => import("./routes/auth.tsx").then((module) => ({ default: module.LoginRoute })));
const RegisterRoute = lazy(() => import("./routes/auth.tsx").then((module) => ({ default: module.RegisterRoute })));
const account = () => import("./routes/account.tsx");
const ProfileRoute = lazy(() => account().then((module) => ({ default: module.ProfileRoute })));
const UploadPhotoRoute = lazy(() => account().then((module) => ({ default: module.UploadPhotoRoute })));
const UpdateProfileRoute = lazy(() => account().then((module) => ({ default: module.UpdateProfileRoute })));
const ChangePasswordRoute = lazy(() => account().then((module) => ({ default: module.ChangePasswordRoute })));
const edit = () => import("./routes/edit.tsx");
const EditPostRoute = lazy(() => edit().then((module) => ({ default: module.EditPostRoute })));
const EditCommentRoute = lazy(() => edit().then((module) => ({ default: module.EditCommentRoute })));
const password = () => import("./routes/password.tsx");
const PasswordResetRequestRoute = lazy(() =>
  password().then((module) => ({ default: module.PasswordResetRequestRoute })),
);
const ResetPasswordRoute = lazy(() => password().then((module) => ({ default: module.ResetPasswordRoute })));
const VerifyAccountRoute = lazy(() => password().then((module) => ({ default: module.VerifyAccountRoute })));
const admin = () => import("./routes/admin.tsx");
const UsersRoute = lazy(() => admin().then((module) => ({ default: module.UsersRoute })));
const AddCategoryRoute = lazy(() => admin().then((module) => ({ default: module.AddCategoryRoute })));
const CategoryListRoute = lazy(() => admin().then((module) => ({ default: module.CategoryListRoute })));
const UpdateCategoryRoute = lazy(() => admin().then((module) => ({ default: module.UpdateCategoryRoute })));
const SettingsRoute = lazy(() => admin().then((module) => ({ default: module.SettingsRoute })));
const SendMailRoute = lazy(() => admin().then((module) => ({ default: module.SendMailRoute })));
const PaymentsRoute = lazy(() => admin().then((module) => ({ default: module.PaymentsRoute })));
const CreatePostRoute = lazy(() =>
  import("./routes/create-post.tsx").then((module) => ({ default: module.CreatePostRoute })),
);

interface ScreenRoute {
  path: string;
  access: Access;
  element: React.ReactNode;
}

/** Section 2 of the spec: every route and who may open it. */
export const screens: ScreenRoute[] = [
  { path: "/", access: "public", element: <HomeRoute /> },
  { path: "/register", access: "public", element: <RegisterRoute /> },
  { path: "/login", access: "public", element: <LoginRoute /> },
  { path: "/posts", access: "public", element: <PostsRoute /> },
  { path: "/posts/:id", access: "public", element: <PostRoute /> },
  // Not in the spec: full-text search (PRODUCT.md, "Search"), rendered on the server like the lists.
  { path: "/search", access: "public", element: <SearchRoute /> },
  { path: "/password-reset-token", access: "public", element: <PasswordResetRequestRoute /> },
  { path: "/reset-password/:token", access: "public", element: <ResetPasswordRoute /> },
  { path: "/create-post", access: "user", element: <CreatePostRoute /> },
  { path: "/update-post/:id", access: "user", element: <EditPostRoute /> },
  { path: "/update-comment/:id", access: "user", element: <EditCommentRoute /> },
  { path: "/profile/:id", access: "user", element: <ProfileRoute /> },
  { path: "/upload-profile-photo", access: "user", element: <UploadPhotoRoute /> },
  { path: "/update-profile/:id", access: "user", element: <UpdateProfileRoute /> },
  { path: "/verify-account/:token", access: "user", element: <VerifyAccountRoute /> },
  { path: "/update-password", access: "user", element: <ChangePasswordRoute /> },
  { path: "/add-category", access: "admin", element: <AddCategoryRoute /> },
  { path: "/category-list", access: "admin", element: <CategoryListRoute /> },
  { path: "/update-category/:id", access: "admin", element: <UpdateCategoryRoute /> },
  { path: "/users", access: "admin", element: <UsersRoute /> },
  // The spec lists /send-mail under admin; the brief lets every signed-in user message from a profile.
  { path: "/send-mail", access: "user", element: <SendMailRoute /> },
  { path: "/Settings", access: "admin", element: <SettingsRoute /> },
  // Not in the spec: verified featured fees and tips, and a user's rewards.
  { path: "/payments", access: "admin", element: <PaymentsRoute /> },
];

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...screens.map(({ path, access, element }) => ({
        path,
        element: <RequireAccess access={access}>{element}</RequireAccess>,
      })),
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
];
