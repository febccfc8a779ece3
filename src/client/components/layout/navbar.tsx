import { Avatar, Box, Button, Container, Flex, HStack, Link } from "@chakra-ui/react";
import { imageAt } from "#shared/images.ts";
import { useColorMode } from "../../lib/color-mode.ts";
import { useSession } from "../../lib/session.ts";
import { useSiteSettings } from "../../lib/site-settings.ts";
import { useLogout } from "../../lib/use-logout.ts";
import { MenuIcon, MoonIcon, SearchIcon, SunIcon } from "../icons.tsx";
import { RouterLink, RouterNavLink } from "../router-link.tsx";
import { SearchForm } from "../search-form.tsx";
import { avatarMenuFor, navLinksFor } from "./nav-links.ts";
import { NavMenu } from "./nav-menu.tsx";

/** `actions`: what the app adds for a signed-in user beside New Blog (the notifications' bell). */
export function Navbar({ actions }: { actions?: React.ReactNode }) {
  const session = useSession();
  const logout = useLogout();
  const { siteName } = useSiteSettings();
  const colorMode = useColorMode();
  const links = navLinksFor(session);
  // The admin's six links fit beside the rest from xl only; below their breakpoint the links fold into the menu.
  const linksShown = session?.isAdmin ? { base: "none", xl: "flex" } : { base: "none", md: "flex" };
  const menuShown = session?.isAdmin ? { base: "inline-flex", xl: "none" } : { base: "inline-flex", md: "none" };
  // Beside the admin's six links the search box leaves the site's name no room: the admin has the search button.
  const searchBoxShown = session?.isAdmin ? "none" : { base: "none", lg: "block" };

  return (
    <Box as="header" borderBottomWidth="1px" bg="bg.panel" position="sticky" top="0" zIndex="sticky">
      <Container maxW="6xl" py="3" px={{ base: "3", sm: "4", md: "6" }}>
        <Flex as="nav" aria-label="Main" align="center" gap={{ base: "2", sm: "4" }}>
          {/* A long site name gives way (cut short) rather than push the bar past the window. */}
          <Link
            asChild
            minW="0"
            truncate
            display="block"
            fontWeight="bold"
            fontSize={{ base: "lg", sm: "xl" }}
            color="teal.fg"
            _hover={{ textDecoration: "none" }}
          >
            <RouterLink to="/">{siteName}</RouterLink>
          </Link>

          <HStack as="ul" listStyleType="none" gap="1" flexShrink="0" display={linksShown}>
            {links.map((link) => (
              <li key={link.to}>
                {/* Tighter below lg, where the links first share the bar with the site's name and the buttons. */}
                <Button asChild variant="ghost" size="sm" px={{ base: "2", lg: "3.5" }}>
                  <RouterNavLink to={link.to}>{link.label}</RouterNavLink>
                </Button>
              </li>
            ))}
          </HStack>

          <HStack ms="auto" flexShrink="0" gap={{ base: "1", sm: "2" }}>
            {/* The search box from lg; narrower bars (phones) have a search button and a menu item. */}
            <Box display={searchBoxShown}>
              <SearchForm compact />
            </Box>
            {/* On the narrowest phones, Search is in the menu only: the bar has room for the bell instead. */}
            <Button
              asChild
              variant="ghost"
              size="sm"
              minW="8"
              px="2"
              display={{
                base: session ? "none" : "inline-flex",
                sm: "inline-flex",
                lg: session?.isAdmin ? "inline-flex" : "none",
              }}
            >
              <RouterLink to="/search" aria-label="Search">
                <SearchIcon />
              </RouterLink>
            </Button>
            {/* Both states are in the markup and the <html> class picks one, so a page rendered on the server, which
                cannot know the mode, shows the right one before its script runs. */}
            {/* A signed-in phone's bar has the bell and the avatar: the mode is switched in the menu there. */}
            <Button
              variant="ghost"
              size="sm"
              minW="8"
              px="2"
              onClick={colorMode.toggle}
              display={{ base: session ? "none" : "inline-flex", sm: "inline-flex" }}
            >
              <Box as="span" display="contents" _dark={{ display: "none" }}>
                <MoonIcon />
                <Box as="span" srOnly>
                  Switch to dark mode
                </Box>
              </Box>
              <Box as="span" display="none" _dark={{ display: "contents" }}>
                <SunIcon />
                <Box as="span" srOnly>
                  Switch to light mode
                </Box>
              </Box>
            </Button>
            <NavMenu
              trigger={(props) => (
                <Button variant="outline" size="sm" display={menuShown} aria-label="Open navigation" {...props}>
                  <MenuIcon />
                </Button>
              )}
              items={[
                ...links,
                { to: "/search", label: "Search" },
                // On a phone, Logout and the colour mode are here rather than in the bar.
                ...(session
                  ? [
                      {
                        label: colorMode.mode === "dark" ? "Switch to light mode" : "Switch to dark mode",
                        onSelect: colorMode.toggle,
                      },
                      { label: "Logout", onSelect: logout },
                    ]
                  : []),
              ]}
            />

            {/* On a phone, Login is in the menu. */}
            {!session && (
              <Button asChild variant="outline" size="sm" display={{ base: "none", sm: "inline-flex" }}>
                <RouterLink to="/login">Login</RouterLink>
              </Button>
            )}
            <Button asChild colorPalette="teal" size={{ base: "xs", sm: "sm" }}>
              <RouterLink to="/create-post">New Blog</RouterLink>
            </Button>
            {session && (
              <>
                {actions}
                {/* Below lg, Logout is in the account menu (and on a phone in the navigation menu too). */}
                <Button variant="outline" size="sm" onClick={logout} display={{ base: "none", lg: "inline-flex" }}>
                  Logout
                </Button>
                <NavMenu
                  trigger={(props) => (
                    <Button variant="plain" size="sm" p="0" aria-label="Account menu" {...props}>
                      <Avatar.Root size="sm">
                        <Avatar.Fallback name={`${session.firstName} ${session.lastName}`} />
                        {session.profilePhoto && (
                          <Avatar.Image src={imageAt(session.profilePhoto, "photo", 128)} alt="" />
                        )}
                      </Avatar.Root>
                    </Button>
                  )}
                  items={[...avatarMenuFor(session), { label: "Logout", onSelect: logout }]}
                />
              </>
            )}
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
