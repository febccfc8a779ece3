import { Container, Spinner } from "@chakra-ui/react";
import { ErrorLines } from "../../components/form/error-lines.tsx";
import { useCategories } from "../../features/categories/api/get-categories.ts";
import { CreatePostForm } from "../../features/posts/components/create-post-form.tsx";

export function CreatePostRoute() {
  const categories = useCategories();
  return (
    <Container maxW="3xl" py="8">
      {categories.isPending ? <Spinner aria-label="Loading categories" /> : <ErrorLines error={categories.error} />}
      {categories.data && <CreatePostForm categories={categories.data.items} />}
    </Container>
  );
}
